"""The protocol: the service's tools and resources served over standard input and
output with the official Model Context Protocol SDK (the ``mcp`` extra).

This is the one module that imports the SDK, through :func:`foldctl.optional.require`,
so without the extra ``foldctl mcp`` says in one line how to install it.  Each request
runs in a worker thread, one at a time, so the protocol keeps answering (pings,
cancellations) while a large source is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from foldctl.errors import FoldctlError
from foldctl.mcp import resources, tools
from foldctl.mcp.service import Answer, Service
from foldctl.optional import require

if TYPE_CHECKING:
    import anyio
    import anyio.to_thread
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError
else:
    types = require("mcp.types", "foldctl mcp")
    Server = require("mcp.server.lowlevel", "foldctl mcp").Server
    stdio_server = require("mcp.server.stdio", "foldctl mcp").stdio_server
    MCPError = require("mcp.shared.exceptions", "foldctl mcp").MCPError
    anyio = require("anyio", "foldctl mcp")  # the SDK's own
    require("anyio.to_thread", "foldctl mcp")

#: The JSON-RPC error code of a resource that cannot be read (the protocol's "resource
#: not found"), with the line the command line prints.
RESOURCE_ERROR: Final = -32002
_READ_ONLY: Final = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
T = TypeVar("T")


def instructions(service: Service) -> str:
    return (
        "foldctl reads back what context compaction folded away: every summary a runtime "
        "left in a conversation is joined to the original messages it replaced, kept on "
        "disk with the session. Start with list_sessions; folds shows a session's folds "
        "and their summaries; expand gives the originals verbatim (a fold: f5); grep "
        "searches live and folded messages; claims checks each summary against its "
        "originals; locate follows a message by digest. Answers are bounded (at most "
        f"{service.max_bytes} bytes) and page with a cursor. Read-only; it serves only "
        f"what is under its roots: {service.roots}."
    )


def build(service: Service, version: str) -> Any:
    """The low-level SDK server over ``service``."""
    lock = threading.Lock()

    async def in_thread(work: Callable[[], T]) -> T:
        def locked() -> T:
            with lock:
                return work()

        return await anyio.to_thread.run_sync(locked)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name,
                    title=tool.title,
                    description=tool.description,
                    input_schema=tool.input_schema,
                    output_schema=tool.output_schema(),
                    annotations=_READ_ONLY,
                )
                for tool in tools.TOOLS.values()
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        answer = await in_thread(lambda: tools.call(service, params.name, params.arguments))
        return _result(answer)

    async def list_resources(ctx: Any, params: Any) -> Any:
        cursor = getattr(params, "cursor", None)
        start = int(cursor) if cursor is not None and str(cursor).isdigit() else 0
        try:
            page, more = await in_thread(lambda: resources.listing(service, start))
        except FoldctlError as e:  # a root that cannot be listed: its line, as a tool says it
            raise MCPError(code=RESOURCE_ERROR, message=service.error_line(e)) from None
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri,
                    name=r.name,
                    title=r.title,
                    description=r.description,
                    mime_type="application/json",
                )
                for r in page
            ],
            next_cursor=None if more is None else str(more),
        )

    async def list_templates(ctx: Any, params: Any) -> Any:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=resources.TEMPLATE,
                    name="span",
                    title="The originals of one fold",
                    description="The messages a fold replaced (the first answer of expand "
                    "with locator fN); {source} is a session's source, percent-encoded.",
                    mime_type="application/json",
                )
            ]
        )

    async def read_resource(ctx: Any, params: Any) -> Any:
        uri = str(params.uri)
        answer = await in_thread(lambda: resources.read(service, uri))
        if answer.is_error:
            raise MCPError(code=RESOURCE_ERROR, message=answer.text, data={"uri": uri})
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=uri, text=answer.text, mime_type="application/json")
            ]
        )

    return Server(
        "foldctl",
        version=version,
        title="foldctl",
        instructions=instructions(service),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def _result(answer: Answer) -> Any:
    content: list[Any] = [types.TextContent(type="text", text=answer.text)]
    if answer.is_error:
        return types.CallToolResult(content=content, is_error=True)
    return types.CallToolResult(content=content, structured_content=answer.document)


def serve(service: Service, version: str) -> None:
    """Serve over standard input and output until the client closes them."""
    server = build(service, version)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
