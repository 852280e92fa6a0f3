"""Treaties recognised in decrees and in treaty texts: the seed documents (real decrees
and treaty texts in Portuguese, English and Swedish) and a real edition with a treaty
decree placed among its acts; and the documents that hold one treaty, or one issue of a
bulletin, in two languages found and paired (their content decides: identity agreeing
or not is the evidence reported with a pair)."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from conftest import SAMPLES
from projects import gazette

from pipeline.editions.acts import find_acts
from pipeline.editions.identity import Identity, country_code, identity_evidence, issue_of
from pipeline.editions.treaties import Treaty, treaty_in, treaty_titles
from pipeline.read.pagedecision import text_in_reading_order
from pipeline.records import Page

DECREE = SAMPLES / "004_5572047d3d386aa9.txt"


def test_a_decree_says_what_it_promulgates_where_and_when_it_was_signed():
    treaty = treaty_in(DECREE.read_text(encoding="utf-8"))
    assert treaty == Treaty(
        instrument="Protocolo",
        title="Protocolo alterando a Convenção entre a República Federativa do Brasil e a "
              "República do Chile Destinada a Evitar a Dupla Tributação e Prevenir a Evasão "
              "Fiscal em Relação ao Imposto sobre a Renda e o seu Protocolo",
        parties=("BRASIL", "CHILE"), language="pt", signed_at="Santiago",
        signed_on="2022-03-03", decree="12.863", decree_on="2026-03-02")


def test_a_treaty_text_is_recognised_by_its_title_in_each_language():
    trilingual = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    titles = treaty_titles(trilingual)
    assert [language for language, _ in titles] == ["pt", "en", "sv"]
    assert titles[1][1] == ("PROTOCOL AMENDING THE CONVENTION BETWEEN BRAZIL AND SWEDEN FOR "
                            "THE AVOIDANCE OF DOUBLE TAXATION WITH RESPECT TO TAXES ON INCOME")
    treaty = treaty_in(trilingual)
    assert treaty is not None and treaty.parties == ("BRASIL", "SUÉCIA")
    # an Indian gazette notification, its annex glued to the notice's last sentence
    india = treaty_in((SAMPLES / "003_0e74b7595024bb83.txt").read_text(encoding="utf-8"))
    assert india is not None and (india.language, india.parties) == ("en", ("INDIA", "CHINA"))
    # the government and the form of state are not the party
    brazil_india = treaty_in((SAMPLES / "000_2a61d363becf8d44.txt").read_text(encoding="utf-8"))
    assert brazil_india is not None and brazil_india.parties == ("BRASIL", "ÍNDIA")


def test_a_treaty_without_a_title_in_capitals_is_known_by_its_preamble():
    japan = treaty_in((SAMPLES / "001_92f44dad33fafe9c.txt").read_text(encoding="utf-8"))
    assert japan is not None
    assert (japan.instrument, japan.parties, japan.language) == (
        "Protocol", ("BRAZIL", "JAPAN"), "en")
    korea = treaty_in("O Governo da República Federativa do Brasil e o Governo da República "
                      "da Coreia,\nDesejando concluir um Acordo para evitar a dupla "
                      "tributação,\nAcordaram o seguinte:")
    assert korea is not None and (korea.instrument, korea.parties) == ("", ("BRASIL", "COREIA"))


def test_domestic_agreements_and_mentions_are_not_treaties():
    assert treaty_in("EXTRATO DO ACORDO DE COOPERAÇÃO TÉCNICA ENTRE A UNIÃO E O ESTADO DE "
                     "GOIÁS\nEspécie: Acordo de Cooperação.") is None
    assert treaty_in("PORTARIA Nº 5, DE 2 DE MARÇO DE 2026\nNos termos do Acordo entre o "
                     "Brasil e o Chile, resolve:") is None


def test_a_treaty_decree_among_the_acts_of_a_real_edition_is_one_act_and_a_treaty(
        shared: Path):
    """Pages 1-3 of the DOU of 1 October 2014, the promulgation decree of the
    Brazil-Chile protocol (seed 004) as the Executive's act, then pages 4-5."""
    with pdfplumber.open(shared / "corpora/brazil-pdfs/DOUS1a.pdf") as pdf:
        dou = [text_in_reading_order(pdf.pages[n]).text for n in range(5)]
    decree = DECREE.read_text(encoding="utf-8")
    texts = [*dou[:3], "Atos do Poder Executivo\n.\n" + decree, *dou[3:]]
    edition = [Page(n, "text-layer", "test", text) for n, text in enumerate(texts, start=1)]
    acts = find_acts(edition)
    treaties = [(act, treaty_in(act.text)) for act in acts]
    found = [(act, treaty) for act, treaty in treaties if treaty is not None]
    assert len(found) == 1
    act, treaty = found[0]
    assert (act.kind, act.first_page, act.bodies) == ("decreto", 4, ("Atos do Poder Executivo",))
    assert treaty.parties == ("BRASIL", "CHILE") and treaty.decree == "12.863"
    # the act holds the whole decree and its annexed protocol, and nothing of the
    # edition's other acts; the acts around it are still there
    assert act.text.endswith(decree.rstrip().splitlines()[-1].strip())
    assert "RESOLUÇÃO Nº 3.662" not in act.text
    assert [a.heading for a in acts].count(act.heading) == 1
    assert acts[acts.index(act) + 1].heading.startswith("RESOLUÇÃO Nº 3.662")


@pytest.mark.slow
def test_the_commands_list_acts_and_treaties(tmp_path: Path):
    listed = gazette("treaties", "--json", str(DECREE), str(SAMPLES / "001_92f44dad33fafe9c.txt"),
                     cwd=tmp_path)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(row["act"], row["parties"], row["decree"]) for row in rows] == [
        ("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026", ["BRASIL", "CHILE"], "12.863"),
        ("", ["BRAZIL", "JAPAN"], None)]  # a file with no act heading: the whole text
    acts = gazette("acts", "--json", str(DECREE), cwd=tmp_path)
    assert acts.returncode == 0, acts.stdout + acts.stderr
    (act,) = [json.loads(line) for line in acts.stdout.splitlines()]
    assert act["kind"] == "decreto" and act["treaty"]["signed_at"] == "Santiago"


def the_trilingual_seed_cut_by_language() -> dict[str, str]:
    text = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    english, swedish = text.index("PROTOCOL AMENDING"), text.index("PROTOKOLL")
    return {"en.txt": text[english:swedish], "pt.txt": text[:english],
            "sv.txt": text[swedish:]}


def test_the_identities_of_a_treaty_s_texts_in_separate_documents_agree():
    documents = the_trilingual_seed_cut_by_language()
    for name in ("001_92f44dad33fafe9c.txt", "004_5572047d3d386aa9.txt",
                 "000_2a61d363becf8d44.txt"):
        documents[name] = (SAMPLES / name).read_text(encoding="utf-8")
    treaties = {name: (treaty_in(text), None) for name, text in documents.items()}
    # Brazil-Sweden in English, Portuguese and Swedish agree; Brazil-Japan (English),
    # Brazil-Chile and Brazil-India (Portuguese) agree with none of them
    agreeing = {(english, other): identity_evidence(treaties[english], treaties[other])
                for english in ("en.txt", "001_92f44dad33fafe9c.txt") for other in treaties
                if other not in ("en.txt", "001_92f44dad33fafe9c.txt")}
    assert {pair: found for pair, found in agreeing.items() if found.agrees} == {
        ("en.txt", "pt.txt"): Identity(("parties", "instrument"), ("BR", "SE")),
        ("en.txt", "sv.txt"): Identity(("parties", "instrument"), ("BR", "SE"))}


def test_country_names_compare_across_languages_and_unknown_names_agree_on_nothing():
    assert {country_code(name) for name in ("ÍNDIA", "India", "Indien", "भारत")} == {"IN"}
    assert country_code("REPÚBLICA POPULAR DA CHINA") == "CN"
    korea = Treaty("Acordo", "", ("BRASIL", "COREIA"), "pt")
    assert identity_evidence((Treaty("Agreement", "", ("BRAZIL", "KOREA"), "en"), None),
                             (korea, None)) == Identity()


@pytest.mark.slow
def test_the_match_command_finds_the_pairs(tmp_path: Path):
    for name, text in the_trilingual_seed_cut_by_language().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = gazette("match", "en.txt", "pt.txt", "sv.txt", str(DECREE), cwd=tmp_path)
    assert found.returncode == 0, found.stdout + found.stderr
    assert "2 pair(s) among 4 file(s)" in found.stdout
    rows = [line for line in found.stdout.splitlines() if "en.txt" in line]
    assert sorted(row.split("│")[2].strip() for row in rows) == ["pt.txt", "sv.txt"]


def test_the_same_issue_in_two_languages_agrees_and_another_issue_does_not():
    english = issue_of("LOK SABHA\nBULLETIN – PART I\nSaturday, February 1, 2020\nNo. 59\n")
    hindi = issue_of("लोक सभा\nसमाचार भाग 1\nशनिवार, 1 फरवरी, 2020\nसंख्या 59\n")
    next_day = issue_of("लोक सभा\nसमाचार भाग 1\nसोमवार, 3 फरवरी, 2020\nसंख्या 60\n")
    assert english is not None and hindi is not None and next_day is not None
    assert identity_evidence((None, english), (None, hindi)).agrees == ("issue number", "date")
    assert identity_evidence((None, english), (None, next_day)).agrees == ()


@pytest.mark.slow
def test_the_english_and_hindi_editions_of_a_bulletin_are_found_to_be_one_issue(
        shared: Path, tmp_path: Path):
    """Lok Sabha Bulletin Part I no. 59 of 1 February 2020, in English and in Hindi (a
    legacy-font PDF), among two other Hindi documents."""
    india = sorted((shared / "corpora/india-pdfs").glob("*.pdf"))
    found = gazette("match", *map(str, india), cwd=tmp_path)
    assert found.returncode == 0, found.stdout + found.stderr
    assert f"1 pair(s) among {len(india)} file(s)" in found.stdout
    (row,) = [line for line in found.stdout.splitlines() if "1.02.2020.pdf" in line]
    assert "010220_hi.pdf" in row and "issue number, date" in row
