"""Cutting an edition into acts: the rules on small made-up pages, and the real
Diário Oficial da União against the acts marked by hand on its first 15 pages."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pdfplumber
import pytest
from conftest import REPO

from pipeline.editions.acts import NUMBER_SIGN, find_acts
from pipeline.read.pagedecision import text_in_reading_order
from pipeline.records import Page


def pages(*texts: str) -> list[Page]:
    return [Page(number, "text-layer", "test", text)
            for number, text in enumerate(texts, start=1)]


EDITION = """\
Sumário
Ministério da Educação...... 9
Ministério da Educação
.
GABINETE DO MINISTRO
PORTARIA Nº 841, DE 30 DE SETEMBRO DE 2014
O MINISTRO DE ESTADO DA EDUCAÇÃO, no uso de suas atribuições,
resolve:
Art. 1º Fica aprovado o regimento.
JOSÉ HENRIQUE PAIM FERNANDES
DESPACHOS DO MINISTRO
Em 30 de setembro de 2014
Homologo o parecer.
JOSÉ HENRIQUE PAIM FERNANDES
FUNDAÇÃO UNIVERSIDADE FEDERAL
DA GRANDE DOURADOS
PRÓ-REITORIA DE ADMINISTRAÇÃO
DESPACHO DO PRÓ-REITOR
Ratifico a dispensa de licitação.
VAGNO NUNES DE OLIVEIRA
Ministério do Desenvolvimento, Indústria
e Comércio Exterior
.
PORTARIA INTERMINISTERIAL Nº 954,
DE 30 DE SETEMBRO DE 2014
OS MINISTROS DE ESTADO, no uso das atribuições,
"""


def test_acts_have_their_heading_kind_bodies_and_pages():
    first, second = EDITION.split("DESPACHOS DO MINISTRO\n")
    acts = find_acts(pages(first, "DESPACHOS DO MINISTRO\n" + second))
    assert [(a.kind, a.heading, a.first_page, a.last_page) for a in acts] == [
        ("portaria", "PORTARIA Nº 841, DE 30 DE SETEMBRO DE 2014", 1, 1),
        ("despacho", "DESPACHOS DO MINISTRO", 2, 2),
        ("despacho", "DESPACHO DO PRÓ-REITOR", 2, 2),
        ("portaria", "PORTARIA INTERMINISTERIAL Nº 954, DE 30 DE SETEMBRO DE 2014", 2, 2)]
    # a body printed once holds for the acts after it; a signature is not a body; a
    # name broken over lines is one name; a banner may take two lines
    assert [a.bodies for a in acts] == [
        ("Ministério da Educação", "GABINETE DO MINISTRO"),
        ("Ministério da Educação", "GABINETE DO MINISTRO"),
        ("Ministério da Educação", "FUNDAÇÃO UNIVERSIDADE FEDERAL DA GRANDE DOURADOS",
         "PRÓ-REITORIA DE ADMINISTRAÇÃO"),
        ("Ministério do Desenvolvimento, Indústria e Comércio Exterior",)]
    # the table of contents is no act's; an act's text runs from its bodies to the
    # line before the next act's, without the next banner
    assert "Sumário" not in "".join(a.text for a in acts)
    assert acts[1].text.endswith("JOSÉ HENRIQUE PAIM FERNANDES")
    assert acts[2].text.startswith("FUNDAÇÃO UNIVERSIDADE FEDERAL\nDA GRANDE DOURADOS")
    assert "Ministério do Desenvolvimento" not in acts[2].text


def test_a_heading_over_two_lines_is_one_act():
    acts = find_acts(pages("PRESIDÊNCIA DA REPÚBLICA\nDESPACHOS DA PRESIDENTA DA REPÚBLICA\n"
                           "MENSAGEM\nNo- 291, de 26 de setembro de 2014. Encaminhamento.\n"))
    assert [(a.kind, a.heading) for a in acts] == [
        ("despacho", "DESPACHOS DA PRESIDENTA DA REPÚBLICA MENSAGEM")]


def test_a_title_repeating_a_decree_s_heading_is_part_of_the_decree():
    acts = find_acts(pages("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026 (parte 1 de 2)\n"
                           "Publicado no Diário Oficial da União, seção 1.\n"
                           "DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026\n"
                           "Promulga o Protocolo.\nArt. 1º Fica promulgado.\n"
                           "DECRETO Nº 12.864, DE 2 DE MARÇO DE 2026\nRegulamenta.\n"))
    assert [(a.kind, a.heading) for a in acts] == [
        ("decreto", "DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026"),
        ("decreto", "DECRETO Nº 12.864, DE 2 DE MARÇO DE 2026")]
    assert acts[0].text.startswith("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026 (parte 1 de 2)")


def test_decisions_under_one_plural_heading_are_items_of_one_act():
    """A council prints several decisions under one dated heading, each with its case
    particulars in capitals (labelled, so no issuing body) and a bare ``DECISÃO``; a
    dated singular heading is an act of its own."""
    acts = find_acts(pages(
        "CONSELHO NACIONAL DO MINISTÉRIO PÚBLICO\nDECISÕES DE 26 DE SETEMBRO DE 2014\n"
        "RELATOR: CONSELHEIRO FULANO DE TAL\nREQUERIDO: MINISTÉRIO PÚBLICO DO ESTADO\n"
        "DECISÃO LIMINAR\nIndefiro o pedido.\nFULANO DE TAL\n"
        "REQUERENTE: SINDICATO DOS SERVIDORES\nDECISÃO\nArquive-se.\nFULANO DE TAL\n"
        "DECISÃO DE 28 DE JULHO DE 2014\nREQUERENTE: SINDICATO DOS SERVIDORES DO\n"
        "MINISTÉRIO PÚBLICO\nASSUNTO: PROPOSTA DE RESOLUÇÃO\nDECISÃO\nArquive-se.\n"
        "BELTRANO\n"))
    assert [(a.kind, a.heading) for a in acts] == [
        ("decisão", "DECISÕES DE 26 DE SETEMBRO DE 2014"),
        ("decisão", "DECISÃO DE 28 DE JULHO DE 2014")]
    assert acts[0].text.endswith("Arquive-se.\nFULANO DE TAL")
    assert acts[1].bodies == ("CONSELHO NACIONAL DO MINISTÉRIO PÚBLICO",)


MINISTRY_ACT = ("Ministério da Agricultura, Pecuária e Abastecimento\n.\nGABINETE DO MINISTRO\n"
                "PORTARIA Nº 1.234, DE 29 DE SETEMBRO DE 2017\n"
                "O MINISTRO DE ESTADO, no uso de suas atribuições, resolve:\n"
                "Art. 1º Aprovar o regulamento.\nBLAIRO MAGGI\n")
DECREE = ("DECRETO Nº 9.123, DE 30 DE SETEMBRO DE 2017\nPromulga o Acordo.\n"
          "O PRESIDENTE DA REPÚBLICA, no uso da atribuição que lhe confere\n")


def test_a_group_heading_in_capitals_is_the_issuing_body_of_the_numbered_act_under_it():
    """``ATOS DO PODER EXECUTIVO`` over a decree, printed in capitals with no ``.``
    line, is not an act of kind ``ato``, nor under the ministry of the acts before."""
    acts = find_acts(pages(MINISTRY_ACT, "ATOS DO PODER EXECUTIVO\n" + DECREE))
    assert [(a.kind, a.heading, a.bodies) for a in acts[1:]] == [
        ("decreto", "DECRETO Nº 9.123, DE 30 DE SETEMBRO DE 2017", ("ATOS DO PODER EXECUTIVO",))]
    assert acts[1].text.startswith("ATOS DO PODER EXECUTIVO\nDECRETO")
    assert acts[0].text.endswith("BLAIRO MAGGI")


def test_a_branch_in_capitals_heads_its_acts_under_no_earlier_banner():
    acts = find_acts(pages(MINISTRY_ACT, "PRESIDÊNCIA DA REPÚBLICA\n" + DECREE))
    assert acts[1].bodies == ("PRESIDÊNCIA DA REPÚBLICA",)
    # the same banner in title case over its "." line, as DOUS1a prints it
    acts = find_acts(pages(MINISTRY_ACT, "Atos do Poder Executivo\n.\n" + DECREE))
    assert acts[1].bodies == ("Atos do Poder Executivo",)


def test_running_heads_and_text_in_capitals_start_no_act():
    edition = pages(
        "SECRETARIA DE PORTOS\nPORTARIA No- 349, DE 30 DE SETEMBRO DE 2014\n"
        "O MINISTRO DE ESTADO CHEFE DA SECRETARIA\nDE PORTOS, no uso das atribuições,\n"
        "CAPÍTULO I\nDOS OBJETIVOS\nArt. 1º Nos termos da Portaria nº 12, de 2013.\n",
        "2 ISSN 1677-7042\nNº 189, quarta-feira, 1 de outubro de 2014\n"
        "Art. 2º Esta Portaria entra em vigor.\nCÉSAR BORGES\n")
    acts = find_acts(edition)
    assert len(acts) == 1 and acts[0].last_page == 2
    # the act is a span of the edition's text: the running head between its pages is
    # in it, as in any document's text, but starts no act
    text = "\n\n".join(page.text for page in edition)
    assert acts[0].text == text[acts[0].start:acts[0].end] == text.strip()


def test_the_first_pages_of_a_real_edition_give_the_acts_marked_by_hand(shared: Path):
    """DOU Seção 1 of 1 October 2014, pages 1-15, read as a run reads a text layer. The
    Ministry of Education's portarias on pages 10-14 each follow the last one's table of
    institutions in capitals (``UNIVERSIDADE SALGADO DE OLIVEIRA`` / ``RUA LAMBARI, 10,
    TÉRREO, …``): cells of that act, not bodies; each is its secretariat's."""
    gold = list(csv.DictReader(
        (line for line in (REPO / "bench/gold/dou-2014-10-01-s1-acts.tsv").open(
            encoding="utf-8") if not line.startswith("#")), delimiter="\t"))
    with pdfplumber.open(shared / "corpora/brazil-pdfs/DOUS1a.pdf") as pdf:
        read = [Page(n, "text-layer", "test", text_in_reading_order(pdf.pages[n - 1]).text)
                for n in range(1, 16)]
    acts = find_acts(read)
    assert len(acts) == len(gold)
    for act, marked in zip(acts, gold, strict=True):
        assert (act.first_page, act.kind) == (int(marked["page"]), marked["kind"])
        assert "".join(act.heading.split()).startswith("".join(marked["heading"].split()))
        assert act.bodies and act.first_page <= act.last_page
    secretariat = ("Ministério da Educação", "SECRETARIA DE REGULAÇÃO E SUPERVISÃO DA "
                   "EDUCAÇÃO SUPERIOR")
    portarias = [act for act in acts if act.heading.startswith(("PORTARIA Nº 56",
                                                                 "PORTARIA Nº 57"))]
    assert len(portarias) == 11 and {act.bodies for act in portarias} == {secretariat}
    assert "RUA LAMBARI, 10, TÉRREO" in portarias[4].text  # the table after Nº 567


@pytest.mark.parametrize("quote", [
    "SOLUÇÃO DE CONSULTA VINCULADA À SOLUÇÃO DE CONSULTA COSIT Nº 99.006, DE 27 DE MAIO DE "
    "2017.",
    "SOLUÇÃO DE CONSULTA VINCULADA\nÀ SOLUÇÃO DE CONSULTA COSIT Nº 99.006, DE 27 DE\n"
    "MAIO DE 2017."])
def test_a_line_quoting_another_act_of_its_kind_is_text_of_the_act(quote: str):
    """A line of an act's text that names another act of its kind is no heading, the
    quote on one line or going on in the next (``… VINCULADA`` / ``À SOLUÇÃO …``)."""
    acts = find_acts(pages(
        "Ministério da Fazenda\n.\nSECRETARIA DA RECEITA FEDERAL DO BRASIL\n"
        "SOLUÇÃO DE CONSULTA Nº 6.012, DE 27 DE SETEMBRO DE 2017\n"
        "ASSUNTO: Imposto sobre a Renda de Pessoa Física - IRPF\n"
        "EMENTA: Os rendimentos são tributáveis na forma da lei.\n"
        f"{quote}\nDISPOSITIVOS LEGAIS: Lei nº 7.713, de 1988, art. 3º.\nFULANO DE TAL\n"
        "SOLUÇÃO DE CONSULTA Nº 6.013, DE 27 DE SETEMBRO DE 2017\nASSUNTO: Contribuições\n"))
    assert [a.heading for a in acts] == ["SOLUÇÃO DE CONSULTA Nº 6.012, DE 27 DE SETEMBRO DE 2017",
                                         "SOLUÇÃO DE CONSULTA Nº 6.013, DE 27 DE SETEMBRO DE 2017"]
    assert "SOLUÇÃO DE CONSULTA COSIT" in acts[0].text


def test_kinds_never_seen_are_acts_by_their_heading_s_shape():
    """No word of these headings is a kind the finder knows: each is an act by its
    shape (a number and a date, after a kind of up to three words; a date on the next
    line; an issuer over the date; a number with its year and the issuer after a dash),
    but a numbered list inside an act of another kind (``RELAÇÃO Nº 75/2017`` under a
    despacho) is none."""
    acts = find_acts(pages(
        "Tribunal Marítimo\n.\nARESTO Nº 994, DE 27 DE SETEMBRO DE 2017\n"
        "O TRIBUNAL MARÍTIMO, no uso de suas atribuições, resolve:\nArquive-se.\n"
        "FULANO DE TAL\nARESTO CONJUNTO DECLARATÓRIO Nº 7, DE 27 DE SETEMBRO DE 2017\n"
        "O TRIBUNAL MARÍTIMO, no uso de suas atribuições, declara:\nArquive-se.\n"
        "FULANO DE TAL\nPROVIMENTO Nº 12,\nDE 27 DE SETEMBRO DE 2017\n"
        "O CORREGEDOR-GERAL, no uso de suas atribuições, resolve:\nRevoga-se.\n"
        "BELTRANO DE TAL\nENUNCIADOS DO CONSELHO PLENO\nEm 27 de setembro de 2017\n"
        "Nº 3 - Aprovado o enunciado.\nCICRANO DE TAL\n"
        "ARESTO Nº 995/2017 - TM - Plenário\n1. Processo nº 123.\n2. Decisão: arquivar.\n"
        "ARESTO Nº 996/2017 - TM - Plenário\n1. Processo nº 124.\n"
        "DESPACHO DO SUPERINTENDENTE\nRELAÇÃO Nº 75/2017\nFase de Autorização de Pesquisa\n"
        "RELAÇÃO Nº 76/2017\nFicam notificados para pagar.\nFULANO DE TAL\n"))
    assert [(a.kind, a.heading) for a in acts] == [
        ("aresto", "ARESTO Nº 994, DE 27 DE SETEMBRO DE 2017"),
        ("aresto", "ARESTO CONJUNTO DECLARATÓRIO Nº 7, DE 27 DE SETEMBRO DE 2017"),
        ("provimento", "PROVIMENTO Nº 12, DE 27 DE SETEMBRO DE 2017"),
        ("enunciado", "ENUNCIADOS DO CONSELHO PLENO"),
        ("aresto", "ARESTO Nº 995/2017 - TM - Plenário"),
        ("aresto", "ARESTO Nº 996/2017 - TM - Plenário"),
        ("despacho", "DESPACHO DO SUPERINTENDENTE")]
    assert acts[-1].text.endswith("RELAÇÃO Nº 76/2017\nFicam notificados para pagar.\n"
                                  "FULANO DE TAL")
    assert all(a.bodies == ("Tribunal Marítimo",) for a in acts)


def test_a_kind_named_by_two_words_the_second_a_known_kind_is_an_act():
    """``CARTA CIRCULAR`` (the Banco Central's) is a kind of its own, qualified by a word
    the finder knows as a kind; an annex's title that names a known kind after ``DA``
    quotes that act and heads none."""
    acts = find_acts(pages(
        "Banco Central do Brasil\n.\nDIRETORIA DE REGULAÇÃO\n"
        "CARTA CIRCULAR Nº 3.838, DE 2 DE OUTUBRO DE 2017\n"
        "Divulga procedimentos para a remessa de informações.\nFULANO DE TAL\n"
        "ANEXO DA CIRCULAR Nº 3.837, DE 29 DE SETEMBRO DE 2017\nTabela de códigos.\n"))
    assert [(a.kind, a.heading, a.bodies) for a in acts] == [
        ("carta", "CARTA CIRCULAR Nº 3.838, DE 2 DE OUTUBRO DE 2017",
         ("Banco Central do Brasil", "DIRETORIA DE REGULAÇÃO"))]
    assert acts[0].text.endswith("Tabela de códigos.")


def test_specks_ocr_read_around_a_heading_do_not_hide_it():
    """OCR reads a speck before a heading as a hyphen, or one after its kind as a stop,
    and misreads a letter of the kind; on a page it read, the heading is known all the
    same (its text as printed), while a text layer's marks are the page's own."""
    text = ("Ministério da Justiça\n.\nDEPARTAMENTO DE POLÍCIA FEDERAL\n"
            "-ABVARÁ Nº 3.605, DE 24 DE SETEMBRO DE 2014\nA COORDENADORA-GERAL, no uso\n"
            "FULANA DE TAL\nDIVISÃO DE PERMANÊNCIA DE ESTRANGEIROS\nDESPACHOS. DO CHEFE\n"
            "DEFIRO o pedido.\n")
    scanned = find_acts([Page(1, "ocr", "a scan", text)])
    assert [(a.kind, a.heading) for a in scanned] == [
        ("alvará", "ABVARÁ Nº 3.605, DE 24 DE SETEMBRO DE 2014"),
        ("despacho", "DESPACHOS DO CHEFE")]
    assert scanned[0].text.startswith("DEPARTAMENTO DE POLÍCIA FEDERAL\n-ABVARÁ")
    assert find_acts(pages(text)) == []


def test_a_running_footer_worded_as_no_list_knows_is_known_by_recurring():
    """Each page ends with a footer the finder has no pattern for (its code changing
    from page to page): it is a running line, so the bodies printed at the foot of a
    page still head the act at the top of the next, and no act ends with the footer."""
    def page(body: str, number: int) -> str:
        return (f"Diário da República - 2 de outubro de 2017\n{body}\n"
                "Documento assinado digitalmente conforme MP nº 2.200-2\n"
                f"Autenticado pelo código 000120171002{number:05d}\n")

    acts = find_acts(pages(
        page("Ministério da Economia\n.\nSECRETARIA DO TESOURO\n"
             "PORTARIA Nº 11, DE 2 DE OUTUBRO DE 2017\nO SECRETÁRIO, no uso\nFULANO DE TAL", 1),
        page("Art. 1º Fica aprovado.\nBELTRANO DE TAL\nSECRETARIA DE GESTÃO", 2),
        page("PORTARIA Nº 12, DE 2 DE OUTUBRO DE 2017\nO SECRETÁRIO, no uso\nCICRANO", 3)))
    assert [a.bodies for a in acts] == [("Ministério da Economia", "SECRETARIA DO TESOURO"),
                                        ("Ministério da Economia", "SECRETARIA DE GESTÃO")]
    assert acts[-1].text.endswith("O SECRETÁRIO, no uso\nCICRANO")


def test_a_line_announcing_a_quote_is_no_announcement_before_an_act_s_body():
    # a retificação announces the heading it quotes; a contract's empty "TESTEMUNHAS:"
    # (its signature lines lost to OCR) does not, as the authority acting follows
    acts = find_acts(pages(
        "MINISTÉRIO DO MEIO AMBIENTE\n.\nEXTRATO DE TERMO DE COMPROMISSO\n"
        "Termo de Compromisso entre o IBAMA e a Concessionária.\nBrasília/DF, de de.\n"
        "Presidente do IBAMA\nConcessionária\nTESTEMUNHAS:\n"
        "PORTARIA Nº 361, DE 30 DE SETEMBRO DE 2014\n"
        "A MINISTRA DE ESTADO DO MEIO AMBIENTE, no uso\nde suas atribuições, resolve:\n"
        "Art. 1º Esta Portaria entra em vigor.\nIZABELLA TEIXEIRA\n"
        "RETIFICAÇÃO\nNo Acórdão publicado no DOU de 30 de setembro de 2014, onde se lê:\n"
        "ACÓRDÃO Nº 5344/2014 - TCU - 1ª Câmara\n1. Processo TC 007.295/2010-3\n"))
    assert [a.kind for a in acts] == ["extrato", "portaria", "retificação"]


def test_a_number_sign_ocr_misread_is_known_by_its_shape():
    """OCR reads the sign of `Nº` as it can (`Ne?`, `N?2`, `No-`, `N°`); a heading is
    known all the same by an `N` and a few marks before the number, and the act gets
    its number; a capitalised word that starts with N before a number is no sign."""
    from pipeline.editions.cut import cut_edition
    from pipeline.read.ingest import source_for
    from pipeline.records import IngestedDocument

    decrees = [f"DECRETO {sign} 8.{n}, DE 30 DE SETEMBRO DE 2014\nA PRESIDENTA DA REPÚBLICA, "
               "no uso da atribuição que lhe confere o art. 84,\nDECRETA:\nArt. 1º Fica "
               "promulgada a decisão.\nDILMA ROUSSEFF\n"
               for n, sign in ((385, "Ne?"), (386, "N?2"), (387, "No-"), (388, "N°"))]
    text = "ISSN 1677-7042\nAtos do Poder Executivo\n.\n" + "".join(decrees)
    cut = cut_edition(IngestedDocument(source_for(Path("dou.txt")), pages(text)))
    assert [act.doc_id for act in cut.acts] == [f"dou--decreto-8{n}" for n in range(385, 389)]
    assert re.match(rf"{NUMBER_SIGN}\d", "NEXO 5") is None  # "ANEXO 5": no sign


def test_a_body_of_a_series_takes_the_place_of_its_rank_under_the_bodies_in_force():
    """The DOU prints over an act the bodies that change: a chamber or a regional
    office of a series replaces the one in force, under the council or secretariat
    printed over an earlier act (CARF, DOU pages 23-28; Receita Federal, pages 31-32).
    A body of one rank but no series stands where it is printed."""
    acts = find_acts(pages(
        "Ministério da Fazenda\n.\nCONSELHO ADMINISTRATIVO DE RECURSOS FISCAIS\n3ª SEÇÃO\n"
        "1ª CÂMARA\n1ª TURMA ESPECIAL\nPAUTA DE JULGAMENTOS\nPauta das sessões de outubro.\n"
        "FULANO DE TAL\nPresidente da Turma\n3ª CÂMARA\n3ª TURMA ESPECIAL\n"
        "PAUTA DE JULGAMENTOS\nPauta das sessões de novembro.\nBELTRANO DE TAL\n"
        "Presidente da Turma\n2ª TURMA ORDINÁRIA\nPAUTA DE JULGAMENTOS\nPauta das sessões.\n"
        "SICRANO DE TAL\nSECRETARIA DA RECEITA FEDERAL DO BRASIL\n"
        "INSTRUÇÃO NORMATIVA Nº 1.495, DE 30 DE SETEMBRO DE 2014\nDispõe sobre o tema.\n"))
    council = ("Ministério da Fazenda", "CONSELHO ADMINISTRATIVO DE RECURSOS FISCAIS", "3ª SEÇÃO")
    assert [act.bodies for act in acts] == [
        (*council, "1ª CÂMARA", "1ª TURMA ESPECIAL"),
        (*council, "3ª CÂMARA", "3ª TURMA ESPECIAL"),
        (*council, "3ª CÂMARA", "2ª TURMA ORDINÁRIA"),
        ("Ministério da Fazenda", "SECRETARIA DA RECEITA FEDERAL DO BRASIL")]


def test_a_rank_the_edition_names_a_series_by_is_a_body_s_rank_after_it():
    """Once the edition has named a body of a series (``ALFÂNDEGA … EM SÃO PAULO``), a
    line in capitals of that rank over a heading names a body, though the list of body
    words lacks the word and the place is on the next line (DOU pages 30-36)."""
    acts = find_acts(pages(
        "Ministério da Fazenda\n.\nSUPERINTENDÊNCIA REGIONAL\nDA 8ª REGIÃO FISCAL\n"
        "ALFÂNDEGA DA RECEITA FEDERAL DO BRASIL EM SÃO PAULO\n"
        "ATO DECLARATÓRIO EXECUTIVO Nº 8, DE 23 DE SETEMBRO DE 2014\n"
        "O INSPETOR-CHEFE, no uso de suas atribuições, declara:\nArt. 1º Fica habilitada.\n"
        "FULANO DE TAL\nALFÂNDEGA DA RECEITA FEDERAL DO BRASIL\nNO PORTO DE SANTOS\n"
        "ATO DECLARATÓRIO EXECUTIVO Nº 9, DE 24 DE SETEMBRO DE 2014\n"
        "O INSPETOR-CHEFE, no uso de suas atribuições, declara:\nArt. 1º Fica habilitada.\n"))
    region = ("Ministério da Fazenda", "SUPERINTENDÊNCIA REGIONAL DA 8ª REGIÃO FISCAL")
    assert [act.bodies for act in acts] == [
        (*region, "ALFÂNDEGA DA RECEITA FEDERAL DO BRASIL EM SÃO PAULO"),
        (*region, "ALFÂNDEGA DA RECEITA FEDERAL DO BRASIL NO PORTO DE SANTOS")]
    assert acts[0].text.endswith("FULANO DE TAL")

def test_a_heading_s_number_is_known_with_the_issuer_s_initials_or_no_sign():
    """Some editions print the issuer's initials between the kind and the number
    (``PORTARIA MF Nº 430``, ``PORTARIA GM/MS Nº 2.500``), or the number with no sign
    before its comma and date (``CONVÊNIO ICMS 127, DE 29 DE SETEMBRO DE 2017``, a kind
    the list lacks; ``LEI 13.487``), or the first of a month as ``1°``, or the number
    and date on a line under the kind (a kind the list lacks, too): each is an act
    with its number."""
    from pipeline.editions.cut import cut_edition
    from pipeline.read.ingest import source_for
    from pipeline.records import IngestedDocument

    headings = ["PORTARIA MF Nº 430, DE 28 DE SETEMBRO DE 2017",
                "PORTARIA GM/MS Nº 2.500, DE 28 DE SETEMBRO DE 2017",
                "CONVÊNIO ICMS 127, DE 29 DE SETEMBRO DE 2017",
                "AJUSTE SINIEF 15, DE 1° DE OUTUBRO DE 2017",
                "LEI 13.487, DE 6 DE OUTUBRO DE 2017",
                "ATO DECLARATÓRIO EXECUTIVO\nNº 155, DE 30 DE SETEMBRO DE 2017",
                "ARESTO CONJUNTO\nNº 3, DE 30 DE SETEMBRO DE 2017"]
    text = "ISSN 1677-7042\nMinistério da Fazenda\n.\n" + "".join(
        f"{heading}\nO MINISTRO DE ESTADO, no uso de suas atribuições, resolve:\n"
        "Art. 1º Fica aprovado o regimento.\nFULANO DE TAL\n" for heading in headings)
    cut = cut_edition(IngestedDocument(source_for(Path("dou.txt")), pages(text)))
    assert [act.act.heading for act in cut.acts] == [h.replace("\n", " ") for h in headings]
    assert [act.doc_id for act in cut.acts] == [
        "dou--portaria-430", "dou--portaria-2500", "dou--convenio-127", "dou--ajuste-15",
        "dou--lei-13487", "dou--ato-155", "dou--aresto-3"]
