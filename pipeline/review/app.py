"""``gazette review --serve``: the review page as a local web app that takes decisions.

A Starlette app bound to 127.0.0.1. Every request, whatever its path, must carry the
session's random token (``?token=…`` or the ``X-Gazette-Token`` header): anything else
on the machine gets 403. Only documents the catalog knows and that are published are
served (404 otherwise).

A decision is taken only as the page itself sends it (:func:`checked_request`): a JSON
body (``Content-Type: application/json``, else 415) of at most :data:`MAX_BODY` bytes
(413), from the page's own origin (an ``Origin`` header naming another site: 403; an
HTML form on another page can send neither JSON nor the token header), with fields of
the right types (400 with the reason; a word and its correction of at most
:data:`MAX_WORD` characters). A refused request leaves ``reviews/`` untouched.

``GET /`` lists the documents and the pairs across documents; ``GET /doc/{doc}`` is the
review page of :mod:`pipeline.review.page` with the actions; ``POST /doc/{doc}/decisions``
takes one action on one row of that page (``{"row": 3, "language": "pt", "action":
"join", "side": "other", "direction": "next"}``), turns it into a decision about
sentences (:func:`decision_for`) and appends it to the document's
``reviews/<doc>.jsonl`` (:mod:`pipeline.project.decisions`; a word corrected on a pair's
page, to the file of the document whose text holds it); the next run applies it. The
answer is the line recorded (or, for a decision already in effect, the line that holds
it, ``duplicate``), what it says and the rows it is about. ``{"action": "undo", "of":
ID, "file": DOC}`` withdraws a decision in effect.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from pipeline.config import Settings
from pipeline.embedding.encoder import encoder_for
from pipeline.errors import InputError
from pipeline.project.catalog import Catalog
from pipeline.project.decisions import UNDO, edit_context, record, sentence_key
from pipeline.review.page import (
    Document,
    describe,
    load,
    render,
    render_index,
    row_decisions,
)
from pipeline.run.plan import pairings

__all__ = ["MAX_BODY", "MAX_WORD", "checked_request", "decision_for", "review_app"]

#: The largest decision body taken, in bytes (a decision is a few hundred).
MAX_BODY = 16_384
#: The longest word, and correction of it, a reviewer may record.
MAX_WORD = 200

_FIELDS: dict[str, tuple[type, ...]] = {
    "row": (int,), "language": (str,), "action": (str,), "side": (str,),
    "direction": (str,), "word": (str,), "correction": (str,), "of": (str,), "file": (str,)}


def checked_request(body: bytes) -> dict[str, Any]:
    """A decision request's fields, read from its JSON ``body`` and checked for shape.

    >>> checked_request(b'{"row": 3, "language": "pt", "action": "confirm"}')
    {'row': 3, 'language': 'pt', 'action': 'confirm'}
    >>> checked_request(b'{"row": true, "language": "pt", "action": "confirm"}')
    Traceback (most recent call last):
    ...
    pipeline.errors.InputError: 'row' must be a int, not true
    >>> checked_request(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    pipeline.errors.InputError: the body is not a JSON object
    """
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise InputError("the body is not a JSON object") from None
    if not isinstance(data, dict):
        raise InputError("the body is not a JSON object")
    for name, value in data.items():
        kinds = _FIELDS.get(name)
        if kinds is None:
            raise InputError(f"unknown field {name!r}")
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise InputError(f"{name!r} must be a {kinds[0].__name__}, not "
                             f"{json.dumps(value)[:40]}")
        if isinstance(value, str) and len(value) > MAX_WORD:
            raise InputError(f"{name!r} is longer than {MAX_WORD} characters")
    for name in ("of",) if data.get("action") == UNDO else ("row", "language", "action"):
        if name not in data:
            raise InputError(f"{name!r} is missing")
    return data


def decision_for(document: Document, request: dict[str, Any]) -> dict[str, Any]:
    """The decision an action on a row of the review page stands for.

    ``request``: ``row`` (its number on the page), ``language`` (the translation acted
    on), ``action``; for ``join``, ``side`` (``pivot`` or ``other``) and ``direction``
    (``next`` or ``previous``); for ``merge`` (one unit of the row and the row above or
    below: a ``join``), ``direction``; for ``edit``, ``word`` and ``correction`` (the
    first occurrence of the word in the row's text of ``language``, which may be the
    pivot language; on a pair's page the edit names the ``document`` whose text holds
    it). Raises :class:`InputError` for an action that does not fit the row.
    """
    rows = document.rows
    number = request.get("row")
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(rows):
        raise InputError(f"no row {number!r} on this page")
    row, language, action = rows[number], request.get("language"), request.get("action")
    if not isinstance(language, str) or language not in document.languages:
        raise InputError(f"no {language!r} text on this page")
    if action == "edit":
        return _edit(document, row.article, row.ids.get(language, ()), language, request)
    if action == "merge":
        return _merge(document, number, language, request.get("direction"))
    pivot_ids = row.ids.get(document.pivot, ())
    other_ids = row.ids.get(language, ()) if language != document.pivot else ()
    if not pivot_ids or not other_ids:
        raise InputError(f"row {number} pairs no {document.pivot} sentence with {language}: "
                         "pair it with the row above or below")
    beads = [(pivot_ids, other_ids)]
    if action == "join":
        side, step = request.get("side"), {"next": 1, "previous": -1}.get(
            request.get("direction", ""))
        if side not in ("pivot", "other") or step is None:
            raise InputError("a join needs a side (pivot, other) and a direction (next, "
                             "previous)")
        ids = pivot_ids if side == "pivot" else other_ids
        added = ids[-1] + 1 if step == 1 else ids[0] - 1
        count = len(document.sentences.get(
            (document.pivot if side == "pivot" else language, row.article), []))
        if not 0 <= added < count:
            raise InputError(f"no {request['direction']} sentence to join on that side")
        joined = tuple(sorted((*ids, added)))
        beads = [(joined, other_ids) if side == "pivot" else (pivot_ids, joined)]
    elif action == "split":
        if len(pivot_ids) < 2 or len(other_ids) < 2:
            raise InputError("a split needs two sentences or more on each side")
        beads = [(pivot_ids[:1], other_ids[:1]), (pivot_ids[1:], other_ids[1:])]
    elif action not in ("confirm", "reject"):
        raise InputError(f"unknown action {action!r}")

    return _beads_decision(document, action, row.article, language, beads)


def _beads_decision(document: Document, action: str, article: str, language: str,
                    beads: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> dict[str, Any]:
    """A decision about beads of one article, its sentences named by their keys."""
    def keys(lang: str, ids: tuple[int, ...]) -> list[str]:
        return [sentence_key(document.sentence(lang, article, i)) for i in ids]

    return {"action": action, "article": article, "language": language,
            "beads": [{"pivot": keys(document.pivot, p), "other": keys(language, o)}
                      for p, o in beads]}


def _merge(document: Document, number: int, language: str, direction: Any) -> dict[str, Any]:
    """One unit of a row and the row above or below it, in ``language``: how a sentence
    left without counterpart is paired from its own row (a ``join`` decision)."""
    step = {"next": 1, "previous": -1}.get(direction if isinstance(direction, str) else "")
    if step is None:
        raise InputError("a merge needs a direction (next, previous)")
    rows, other = document.rows, number + step
    if not 0 <= other < len(rows) or rows[other].article != rows[number].article:
        raise InputError(f"no {direction} row in the same article to pair with")
    both = (rows[number], rows[other])
    pivot_ids = tuple(sorted({i for row in both for i in row.ids.get(document.pivot, ())}))
    other_ids = tuple(sorted({i for row in both for i in row.ids.get(language, ())}))
    if not pivot_ids or not other_ids:
        raise InputError(f"the two rows hold no {document.pivot} sentence and {language} "
                         "sentence to pair")
    for ids in (pivot_ids, other_ids):
        if ids != tuple(range(ids[0], ids[-1] + 1)):
            raise InputError("the two rows' sentences are not next to each other on each side")
    return _beads_decision(document, "join", rows[number].article, language,
                           [(pivot_ids, other_ids)])


def _edit(document: Document, article: str, ids: tuple[int, ...], language: str,
          request: dict[str, Any]) -> dict[str, Any]:
    word, correction = request.get("word"), request.get("correction")
    if not isinstance(word, str) or not isinstance(correction, str) or not word.strip():
        raise InputError("an edit needs the word and its correction")
    for i in ids:
        start, end = document.sentences[(language, article)][i]
        at = document.text.find(word, start, end)
        if at >= 0:
            part = document.part_at(at)  # the context is of that document's text alone
            decision = {"action": "edit", "language": language, "article": article,
                        "edit": {"before": word, "after": correction, **edit_context(
                            document.text[part.start:part.end], at - part.start,
                            at - part.start + len(word))}}
            return {**decision, "document": part.doc_id} if document.parts else decision
    raise InputError(f"{word!r} is not in that row's {language} text")


def review_app(settings: Settings, token: str, who: str) -> ASGIApp:
    """The app for one project, answering only requests that carry ``token``;
    decisions are recorded as made by ``who``."""

    def allowed(request: Request) -> bool:
        given = request.query_params.get("token") or request.headers.get("x-gazette-token")
        return given is not None and secrets.compare_digest(given, token)

    async def index(request: Request) -> Response:
        return _index(settings, token)

    async def page(request: Request) -> Response:
        try:
            found = _document(settings, request.path_params["doc"], maps=True)
        except InputError as exc:
            return _error(str(exc), 404)
        return HTMLResponse(render(found, serve=f"/doc/{found.doc_id}/decisions?token={token}"))

    async def decide(request: Request) -> Response:
        body = await _decision_body(request)
        if isinstance(body, Response):
            return body
        try:
            fields = checked_request(body)
        except InputError as exc:
            return _error(str(exc), 400)
        try:
            found = _document(settings, request.path_params["doc"])
        except InputError as exc:
            return _error(str(exc), 404)
        try:
            return JSONResponse(_decided(settings, found, fields, who))
        except InputError as exc:
            return _error(str(exc), 400)

    app = Starlette(routes=[
        Route("/", index), Route("/doc/{doc}", page),
        Route("/doc/{doc}/decisions", decide, methods=["POST"]),
    ])

    async def gate(scope: Scope, receive: Receive, send: Send) -> None:
        """Every path answers 403 without the token, before any route is looked up."""
        if scope["type"] == "http" and not allowed(Request(scope)):
            await _refused()(scope, receive, send)
            return
        await app(scope, receive, send)

    return gate


def _decided(settings: Settings, document: Document, fields: dict[str, Any], who: str
             ) -> dict[str, Any]:
    """Record the decision a checked request stands for (or withdraw one, for an undo);
    the answer to the page: the line, what it says, its file and the rows it is about."""
    files = {document.doc_id, *(part.doc_id for part in document.parts)}
    if fields["action"] == UNDO:
        file = fields.get("file", document.doc_id)
        if file not in files:
            raise InputError(f"{file!r} is not a review file of this page")
        line = record(settings, file, {"action": UNDO, "of": fields["of"]}, who)
        return {"decision": line, "file": file, "what": "undo", "rows": [],
                "duplicate": False, "elsewhere": file != document.doc_id}
    decision = decision_for(document, fields)
    file = decision.get("document", document.doc_id)
    line = record(settings, file, decision, who)
    on_rows = row_decisions(replace(document, decisions=[line]))
    return {"decision": line, "file": file, "what": describe(line),
            "rows": sorted(on_rows), "duplicate": bool(line.get("duplicate")),
            "elsewhere": file != document.doc_id}


def _index(settings: Settings, token: str) -> Response:
    """The list of documents to review: those done and aligned, and the pairs across
    documents."""
    pairs = pairings(settings)
    documents = [row.doc_id for row in Catalog(settings).documents()
                 if row.status == "done" and (settings.aligned / row.doc_id).is_dir()]
    return HTMLResponse(render_index(
        [doc for doc in documents if doc not in pairs],
        [(doc, str(pairs[doc].get("language"))) for doc in documents if doc in pairs], token))


def _document(settings: Settings, doc_id: str, maps: bool = False) -> Document:
    """A processed document's review data (with its similarity maps); :class:`InputError`
    if the catalog does not have it or it cannot be reviewed."""
    if Catalog(settings).document(doc_id) is None:
        raise InputError(f"no processed document {doc_id!r} in the catalog")
    return load(settings, doc_id, encoder_for(settings).encode if maps else None)


async def _decision_body(request: Request) -> bytes | Response:
    """The body of a decision request, or the error response that refuses it: sent by
    another site's page (its Origin is not this app's), not JSON, or too long."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        return _error("decisions are taken from this review page only", 403)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _error("a decision is sent as application/json", 415)
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        return _error(f"a decision is at most {MAX_BODY} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _error(f"a decision is at most {MAX_BODY} bytes", 413)
    return body


def _refused() -> Response:
    return _error("this review session's token is missing or wrong", 403)


def _error(reason: str, status: int) -> Response:
    return JSONResponse({"error": reason}, status_code=status)
