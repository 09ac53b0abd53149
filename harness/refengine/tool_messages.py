"""The built-in tools' fixed result strings (Bash, Read, Write, Edit, Glob, Grep, NotebookEdit, WebFetch,
WebSearch): part of the engine's fixed strings, kept apart from messages.py's errors and listings.

Each was measured on claude 2.1.252 through a fake Messages API unless its comment says otherwise.
"""

from __future__ import annotations

from pathlib import Path

from harness.refengine.messages import tool_use_error

BASH_NO_OUTPUT = "(Bash completed with no output)"
_FILE_STATE_NOTE = "(file state is current in your context \u2014 no need to Read it back)"


def bash_exit_code(code: int, output: str) -> str:
    return f"Exit code {code}\n{output}" if output else f"Exit code {code}"


def read_folder(path: Path) -> str:
    """Read of a folder: the file system's error, after PreToolUse, with PostToolUseFailure (builtin-read-folder,
    builtin-read-folder-hooks, 2.1.252 to 2.1.332)."""
    return f"EISDIR: illegal operation on a directory, read '{path}'"


def read_missing_file(workdir: Path) -> str:
    return f"File does not exist. Note: your current working directory is {workdir}."


def file_created(path: str) -> str:
    return f"File created successfully at: {path} {_FILE_STATE_NOTE}"


def file_updated(path: str, *, note: bool = True) -> str:
    """``note``: 2.1.332 leaves the file-state note off an Edit of a file the context never had whole."""
    return f"The file {path} has been updated successfully." + (f" {_FILE_STATE_NOTE}" if note else "")


def file_replaced_all(path: str, *, note: bool = True) -> str:
    """Edit with ``replace_all: true`` (measured on 2.1.252 to 2.1.332)."""
    return f"The file {path} has been updated. All occurrences were successfully replaced." + \
        (f" {_FILE_STATE_NOTE}" if note else "")


def edit_string_not_found(old: str) -> str:
    return tool_use_error(f"String to replace not found in file.\nString: {old}")


def edit_ambiguous(count: int, old: str) -> str:
    return tool_use_error(
        f"Found {count} matches of the string to replace, but replace_all is false. To replace all occurrences, "
        "set replace_all to true. To replace only one occurrence, please provide more context to uniquely "
        f"identify the instance.\nString: {old}"
    )


def read_past_end(offset: int, total: int) -> str:
    """Read from a line past the end (builtin-read-past-end, builtin-read-past-end-offsets; "1 lines" too)."""
    return f"Warning: the file exists but is shorter than the provided offset ({offset}). The file has {total} lines."


READ_EMPTY = "Warning: the file exists but the contents are empty."  # builtin-read-empty, builtin-read-empty-again


EDIT_NO_CHANGE = tool_use_error("No changes to make: old_string and new_string are exactly the same.")
EDIT_FILE_EXISTS = tool_use_error("Cannot create new file - file already exists.")
FILE_NOT_READ = tool_use_error("File has not been read yet. Read it first before writing to it.")


def edit_missing_file(workdir: Path) -> str:
    """Edit's missing file: Read's text, wrapped (Read's own is not)."""
    return tool_use_error(read_missing_file(workdir))


# -- Glob and Grep (measured on 2.1.252 to 2.1.332) ---------------------------------------------

NO_FILES_FOUND = "No files found"
NO_MATCHES_FOUND = "No matches found"


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def found_files(paths: list[str]) -> str:
    """Grep's ``files_with_matches`` answer."""
    return f"Found {_plural(len(paths), 'file')}\n" + "\n".join(paths)


def count_summary(total: int, files: int) -> str:
    """The line after Grep's ``count`` lines (also after ``No matches found``)."""
    return f"\n\nFound {_plural(total, 'total occurrence')} across {_plural(files, 'file')}."


def search_path_missing(kind: str, path: str, workdir: Path, *, wrapped: bool) -> str:
    """Glob says ``Directory``, Grep ``Path``; wrapped up to 2.1.257, bare from 2.1.278."""
    text = f"{kind} does not exist: {path}. Note: your current working directory is {workdir}."
    return tool_use_error(text) if wrapped else text


def search_not_a_directory(path: str, *, wrapped: bool) -> str:
    text = f"Path is not a directory: {path}"
    return tool_use_error(text) if wrapped else text


# -- NotebookEdit (measured on 2.1.252 to 2.1.332) ----------------------------------------------

NOTEBOOK_ONLY = tool_use_error(
    "File must be a Jupyter notebook (.ipynb file). For editing other file types, use the FileEdit tool.")
NOTEBOOK_INSERT_NEEDS_TYPE = tool_use_error("Cell type is required when using edit_mode=insert.")


def notebook_cell_not_found(cell_id: str) -> str:
    return tool_use_error(f'Cell with ID "{cell_id}" not found in notebook.')


def notebook_updated(cell_id: str, source: str) -> str:
    return f"Updated cell {cell_id} with {source}"


def notebook_deleted(cell_id: str) -> str:
    return f"Deleted cell {cell_id}"


def notebook_cell_view(cell_id: str, cell_type: str, source: str) -> str:
    """One cell as Read shows a notebook; a code cell carries no type tag (measured for a python kernel)."""
    tag = "" if cell_type == "code" else f"<cell_type>{cell_type}</cell_type>"
    return f'<cell id="{cell_id}">{tag}{source}</cell id="{cell_id}">'


# -- WebFetch and WebSearch (measured on 2.1.252 to 2.1.332) ------------------------------------


def webfetch_unverified(host: str) -> str:
    """The domain preflight (a request to claude.ai) failing, as it always does without a network."""
    return (f"Unable to verify if domain {host} is safe to fetch. This may be due to network restrictions or "
            "enterprise security policies blocking claude.ai.")


def webfetch_refused(host: str, port: int) -> str:
    return f"connect ECONNREFUSED {host}:{port}"


def webfetch_http_error(status: int, reason: str) -> str:
    """A non-2xx answer (measured for 404): not an error result."""
    return (f"The server returned HTTP {status} {reason}.\n\nThe response body was not retrieved. If this URL "
            "requires authentication, use an authenticated tool (e.g. `gh` for GitHub, or an MCP-provided fetch "
            "tool) instead of WebFetch.")


def websearch_request(query: str) -> str:
    """The opening of the search's own model request (offered the server tool ``web_search``)."""
    return f"Perform a web search for the query: {query}"


def websearch_result(query: str, answer: str) -> str:
    return (f'Web search results for query: "{query}"\n\n{answer}\n\n\n'
            "REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.")
