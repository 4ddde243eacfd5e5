#!/usr/bin/env python3
"""Writes the section 3 man pages of mpi-info: one page per MPI_ and MPIX_ function of
include/mpi_info.h, made from the function's doc comment there (which cbindgen copies from
src/capi/*.rs), and a one-line page `.so man3/MPI_X.3` for each PMPI_X / PMPIX_X twin.
The Fortran synopses come from the interfaces in fortran/mpi_info.f90 (old style) and
fortran/mpi_info_f08.f90. Python 3 standard library only.

The C synopsis also gives the standard ABI build: include/mpi_info_abi.h and libmpi_info_abi,
whose prototypes are mpi_info.h's with another `MPI_Info` (its typedef is read from each
header). A function the ABI header declares is shown with both headers and libraries and both
typedefs; one it does not declare is said to be libmpi_info's only, and its Notes must say
what libmpi_info_abi offers instead (name `libmpi_info_abi` and a function of the ABI header).

    tools/manpages.py [--out DIR] [--version V]   write the pages into DIR (build/man/man3)
    tools/manpages.py --list                      print the pages' file names

The doc comment of every exported MPI_/MPIX_ function has this form (paragraphs separated by
empty lines; `code` in backquotes):

    Summary: one sentence, the NAME line of the page.

    Description: paragraphs, and lists of "- " items whose further lines are indented by two
    spaces.

    Parameters:
    - `name` (in): what it is;            one item per parameter, in the prototype's order;
    - `a`, `b` (in/out): ...              (in), (out) or (in/out)

    Errors, in checking order (words that hold for every error, such as what is not written):
    - `MPI_ERR_X`: when;                  one item per check, in the order the code checks;
    paragraphs between items are allowed  (a function that cannot fail has "Errors: none. ...")

    Notes:
    paragraphs or items (where MPICH and Open MPI differ, Fortran specifics)

    See also: `MPI_Info_x`, `MPIX_Info_y`.

Parameters, Errors and See also are required; Notes is optional. The generator stops with a
message when a comment breaks the form, when the documented parameters are not the prototype's,
when a See also name is not a function of the header, when a twin is missing, or when the
ABI header's functions are not a subset of mpi_info.h's with the same prototypes.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "mpi_info.h")
ABI_HEADER = os.path.join(ROOT, "include", "mpi_info_abi.h")
FORTRAN_OLD = os.path.join(ROOT, "fortran", "mpi_info.f90")
FORTRAN_F08 = os.path.join(ROOT, "fortran", "mpi_info_f08.f90")

PROTOTYPE = re.compile(r"^(?P<ret>[A-Za-z_]\w*) (?P<name>P?MPIX?_\w+)\((?P<args>.*)\);$")
HEADING = re.compile(
    r"^(?P<kind>Parameters|Errors|Notes|See also)(?P<order>, in checking order)?"
    r"(?: \((?P<scope>[^()]*)\))?:(?:[ \n](?P<rest>.*))?$",
    re.S,
)
PARAMETER = re.compile(r"^(?P<names>(?:`\w+`, )*`\w+`) \((?P<dir>in|out|in/out)\): (?P<text>.*)$", re.S)
ERROR = re.compile(r"^(?P<classes>(?:`MPI_ERR_\w+`, )*`MPI_ERR_\w+`): (?P<text>.*)$", re.S)


class FormatError(Exception):
    pass


def read_header(path):
    """The header's functions, in order: {name: (return type, prototype, [(type, name)],
    doc comment lines)}."""
    functions = {}
    comment, doc = None, []
    lines = open(path, encoding="utf-8").read().split("\n")
    for line in lines:
        if line == "/**":
            comment = []
        elif comment is not None and line == " */":
            doc, comment = comment, None
        elif comment is not None:
            comment.append(line[3:] if line.startswith(" * ") else line[2:])
        elif line.strip():
            match = PROTOTYPE.match(line)
            if match:
                args = [a.strip() for a in match["args"].split(",")] if match["args"] else []
                params = [(a, re.search(r"(\w+)$", a).group(1)) for a in args]
                functions[match["name"]] = (match["ret"], line, params, doc)
            doc = []
    return functions


def handle_typedef(path):
    """The header's `typedef ... MPI_Info;` line."""
    for line in open(path, encoding="utf-8").read().split("\n"):
        if re.match(r"^typedef .*\bMPI_Info;$", line):
            return line
    raise FormatError(f"{path}: no typedef of MPI_Info")


def abi_differences(functions, abi_functions):
    """The functions of mpi_info.h that the ABI header lacks. Every function the ABI header
    declares must be one of mpi_info.h's, with the same prototype text: the pages show one
    prototype for both."""
    for name, (_, prototype, _, _) in abi_functions.items():
        if name not in functions:
            raise FormatError(f"{ABI_HEADER}: {name} is not in {HEADER}, so it would have no page")
        if functions[name][1] != prototype:
            raise FormatError(f"{name}: the prototypes of the two headers differ: {functions[name][1]!r}, {prototype!r}")
    return {name for name in functions if name not in abi_functions}


def blocks(lines, where):
    """Paragraphs and list items: [("para" | "item", text)], each text on one line."""
    result = []
    for line in lines:
        if line.startswith("- "):
            result.append(["item", line[2:]])
        elif line.startswith("  ") and result and result[-1][0] == "item":
            result[-1][1] += " " + line.strip()
        elif line.startswith(" ") or line.startswith("-"):
            raise FormatError(f"{where}: unexpected indentation or dash: {line!r}")
        elif result and result[-1][0] == "para" and result[-1][1] is not None:
            result[-1][1] += " " + line
        else:
            result.append(["para", line])
    return [tuple(b) for b in result]


def parse_doc(name, lines):
    """A doc comment in the form above: {"summary", "description", "parameters", "errors",
    "errors_scope", "errors_ordered", "notes", "see_also"}."""
    paragraphs, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
    if not paragraphs:
        raise FormatError(f"{name}: no doc comment")
    doc = {"summary": " ".join(paragraphs[0]), "description": [], "notes": []}
    section = "description"
    for paragraph in paragraphs[1:]:
        heading = HEADING.match("\n".join(paragraph))
        if heading:
            section = heading["kind"].lower().replace(" ", "_")
            if section in doc and section not in ("description", "notes"):
                raise FormatError(f"{name}: {heading['kind']} given twice")
            if section == "notes" and doc["notes"]:
                raise FormatError(f"{name}: Notes given twice")
            doc.setdefault(section, [])
            if section == "errors":
                doc["errors_ordered"] = bool(heading["order"])
                doc["errors_scope"] = heading["scope"] and heading["scope"].replace("\n", " ")
            elif heading["order"] or heading["scope"]:
                raise FormatError(f"{name}: only Errors takes words after its heading")
            paragraph = heading["rest"].split("\n") if heading["rest"] else []
        doc[section].extend(blocks(paragraph, f"{name}, {section}"))
    for required in ("parameters", "errors", "see_also"):
        if required not in doc:
            raise FormatError(f"{name}: no {required.replace('_', ' ').capitalize()} section")
    return doc


def check(name, function, functions, doc):
    """The checks that keep a page true to its prototype."""
    ret, _, params, _ = function
    documented = []
    for kind, text in doc["parameters"]:
        match = PARAMETER.match(text) if kind == "item" else None
        if not match:
            raise FormatError(f"{name}: a Parameters entry is not \"- `name` (in|out|in/out): text\": {text!r}")
        documented += re.findall(r"`(\w+)`", match["names"])
    if documented != [p for _, p in params]:
        raise FormatError(f"{name}: parameters documented {documented}, prototype has {[p for _, p in params]}")
    if doc["errors_ordered"]:
        if ret != "int":
            raise FormatError(f"{name}: returns {ret}, not an error class, yet lists errors")
        items = [text for kind, text in doc["errors"] if kind == "item"]
        if not items:
            raise FormatError(f"{name}: Errors, in checking order, has no entry")
        for text in items:
            if not ERROR.match(text):
                raise FormatError(f"{name}: an Errors entry is not \"- `MPI_ERR_X`: text\": {text!r}")
    elif not doc["errors"]:
        raise FormatError(f"{name}: Errors is empty")
    see_also = " ".join(text for _, text in doc["see_also"])
    names = re.findall(r"`(\w+)`", see_also)
    if not names or re.sub(r"`\w+`|[ ,.]", "", see_also):
        raise FormatError(f"{name}: See also is not a list of `names`: {see_also!r}")
    for other in names:
        if other not in functions or other == name:
            raise FormatError(f"{name}: See also names {other}, which is not another function of the header")
    twin = "P" + name
    if twin not in functions:
        raise FormatError(f"{name}: no {twin} in the header")
    if functions[twin][1] != function[1].replace(f" {name}(", f" {twin}(", 1):
        raise FormatError(f"{twin}: its prototype is not {name}'s")
    if functions[twin][3] != [f"Profiling name of `{name}`."]:
        raise FormatError(f"{twin}: its doc comment is not \"Profiling name of `{name}`.\"")
    return names


def check_abi_note(name, doc, abi_functions):
    """A function libmpi_info_abi lacks has a note that names libmpi_info_abi and a function of
    the ABI header to use instead."""
    for _, text in doc["notes"]:
        if "`libmpi_info_abi`" in text and any(f in abi_functions for f in re.findall(r"`(\w+)`", text)):
            return
    raise FormatError(f"{name}: not in {ABI_HEADER}, and no note names `libmpi_info_abi` and a function of it to use instead")


def fortran_interfaces(path):
    """{procedure name: (dummy arguments, declaration lines)} for the procedures a module
    declares with `procedure(interface) :: names` from its abstract interfaces."""
    lines, pending = [], ""
    for raw in open(path, encoding="utf-8"):
        line = raw.split("!", 1)[0].strip()
        if line.endswith("&"):
            pending += line[:-1].strip() + " "
            continue
        line, pending = (pending + line).strip(), ""
        if line:
            lines.append(line)
    interfaces, procedures, current, abstract = {}, {}, None, False
    for line in lines:
        lower = line.lower()
        subroutine = re.match(r"subroutine (\w+)\((.*)\)$", line, re.I)
        procedure = re.match(r"procedure\((\w+)\) :: (.*)$", line, re.I)
        if lower == "abstract interface":
            abstract = True
        elif abstract and lower == "end interface":
            abstract = False
        elif abstract and subroutine:
            current = (subroutine[1], subroutine[2], [])
            interfaces[current[0]] = current
        elif abstract and lower.startswith("end subroutine"):
            current = None
        elif current is not None and not lower.startswith("import"):
            current[2].append(line)
        elif procedure:
            for name in procedure[2].split(","):
                _, args, decls = interfaces[procedure[1]]
                procedures[name.strip()] = (args, decls)
    if not procedures:
        raise FormatError(f"{path}: no procedures found")
    return procedures


def escape(text, code=False):
    """Text for a roff text line or macro argument."""
    text = text.replace("\\", "\\e")
    if code:
        text = text.replace("-", "\\-")
    return "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)


def bold(name):
    """A name in bold, never hyphenated."""
    return f"\\fB\\%{name}\\fR"


def inline(text, params):
    """A comment's text in roff: `code` in bold, or in italics when it is a parameter."""
    parts = re.split(r"(`[^`]*`)", text)
    if "`" in "".join(parts[0::2]):
        raise FormatError(f"unpaired backquote in {text!r}")
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            code = part[1:-1]
            font = "I" if code in params else "B"
            out.append(f"\\f{font}\\%{escape(code, code=True)}\\fR")
        else:
            out.append(escape(part))
    line = "".join(out)
    return "\\&" + line if line[:1] in (".", "'") else line


def render_blocks(blocks_, params, tagged=None):
    """Paragraphs (.PP) and items: bullets, or tagged paragraphs (.TP) when `tagged` splits an
    item into its tag and its text."""
    out = []
    for kind, text in blocks_:
        if kind == "para":
            out += [".PP", inline(text, params)]
        elif tagged:
            tag, body = tagged(text)
            out += [".TP", tag, inline(body, params)]
        else:
            out += [".IP \\(bu 2", inline(text, params)]
    return out


def wrap_prototype(line, width=70):
    """A C prototype broken after commas, the arguments aligned after the parenthesis."""
    if len(line) <= width:
        return [line]
    head, rest = line.split("(", 1)
    indent = " " * (len(head) + 1)
    pieces = rest.split(", ")
    lines, current = [], head + "(" + pieces[0]
    for piece in pieces[1:]:
        if len(current) + 2 + len(piece) > width:
            lines.append(current + ",")
            current = indent + piece
        else:
            current += ", " + piece
    return lines + [current]


def page(name, function, doc, old, f08, version, typedefs, in_abi):
    """The man(7) text of `name`'s page. `typedefs`: the `MPI_Info` typedef of mpi_info.h and of
    mpi_info_abi.h; `in_abi`: whether mpi_info_abi.h declares the function."""
    ret, prototype, params, _ = function
    param_names = {p for _, p in params}
    twin = "P" + name
    summary = doc["summary"].replace("`", "").rstrip(".")
    out = [
        '.\\" Generated by tools/manpages.py from include/mpi_info.h and include/mpi_info_abi.h (src/capi/): do not edit.',
        f'.TH {name} 3 "" "mpi-info {version}" "mpi-info"',
        ".SH NAME",
        f"{name}, {twin} \\- {escape(summary)}",
        ".SH SYNOPSIS",
        ".SS C",
        ".nf",
    ]
    # Each header with its library and, where the prototypes use it, its MPI_Info.
    uses_handle = re.search(r"\bMPI_Info\b", prototype)
    headers = [("mpi_info.h", "/* \\-lmpi_info */", typedefs[0])]
    if in_abi:
        headers.append(("mpi_info_abi.h", "/* \\-lmpi_info_abi, the MPI\\-5.0 standard ABI */", typedefs[1]))
    for at, (header, library, typedef) in enumerate(headers):
        out += [".sp"] if at and uses_handle else []
        out += [f"\\fB#include <{header}>\\fR" + " " * (len("mpi_info_abi.h") - len(header) + 4) + library]
        out += [escape(typedef, code=True)] if uses_handle else []
    out.append(".sp")
    for line in (prototype, prototype.replace(f" {name}(", f" {twin}(", 1)):
        out += wrap_prototype(line)
    out.append(".fi")
    if in_abi:
        out += [".PP", "A program includes one header and links with its library: mpi_info.h with libmpi_info, or, "
                "compiled against the MPI\\-5.0 standard ABI, mpi_info_abi.h with libmpi_info_abi. The prototypes "
                "are the same in both" + ("; \\fBMPI_Info\\fR is an \\fBint\\fR in one and a pointer in the other."
                                          if uses_handle else ".")]
    else:
        out += [".PP", f"Not in mpi_info_abi.h and libmpi_info_abi, the MPI\\-5.0 standard ABI build: {bold(name)} "
                "is libmpi_info\\(aqs only (see NOTES)."]
    fortran_name = name.upper()
    if fortran_name in old or name + "_f08" in f08:
        out += [".PP", "The Fortran routines below call libmpi_info, never libmpi_info_abi: a Fortran program "
                "links libmpi_info (and, for \\fBmpi_info_f08\\fR, libmpi_info_f08)."]
    if fortran_name in old:
        args, decls = old[fortran_name]
        out += [".SS \"Fortran: INCLUDE 'mpi_infof.h' or USE mpi_info\"", ".nf",
                f"{fortran_name}({args})"] + [f"    {escape(d)}" for d in decls] + [".fi"]
    if name + "_f08" in f08:
        args, decls = f08[name + "_f08"]
        out += [".SS \"Fortran 2008: USE mpi_info_f08\"", ".nf",
                f"{name}({args})"] + [f"    {escape(d)}" for d in decls] + [".fi"]

    out.append(".SH PARAMETERS")

    def parameter(text):
        match = PARAMETER.match(text)
        names = ", ".join(f"\\fI{n}\\fR" for n in re.findall(r"`(\w+)`", match["names"]))
        return names, f"({match['dir']}) {match['text']}"

    out += render_blocks(doc["parameters"], param_names, parameter)
    if fortran_name in old or name + "_f08" in f08:
        out += [".TP", "\\fIIERROR\\fR (Fortran only)",
                "(out) \\fBMPI_SUCCESS\\fR or the error class, as the C function returns it; "
                "\\fIierror\\fR is OPTIONAL in \\fBmpi_info_f08\\fR."]

    out.append(".SH DESCRIPTION")
    description = render_blocks(doc["description"] or [("para", doc["summary"])], param_names)
    out += description[1:] if description[0] == ".PP" else description
    fortran_twins = []
    if fortran_name in old:
        fortran_twins.append(bold("P" + fortran_name))
    if name + "_f08" in f08:
        fortran_twins.append(f"{bold(twin)} in {bold('mpi_info_f08')}")
    out += [".PP", f"{bold(twin)} is the same function under its profiling name"
            + (f" (in Fortran {' and '.join(fortran_twins)})" if fortran_twins else "")
            + f": a profiling tool that defines its own {bold(name)} calls {bold(twin)} to reach this one."]

    out.append(".SH ERRORS")
    if doc["errors_ordered"]:
        intro = ("Returns \\fBMPI_SUCCESS\\fR, or the class of the first error below that applies, "
                 "the arguments being checked in this order.")
        if doc["errors_scope"]:
            scope = doc["errors_scope"]
            intro += " " + inline(scope[0].upper() + scope[1:] + ".", param_names)
        out += [intro]

        def error(text):
            match = ERROR.match(text)
            classes = ", ".join(bold(c) for c in re.findall(r"`(\w+)`", match["classes"]))
            return classes, match["text"]

        out += render_blocks(doc["errors"], param_names, error)
        out += [".PP", "Any call may also return \\fBMPI_ERR_INTERN\\fR, which means a bug in the library."]
    else:
        first = doc["errors"][0][1]
        out.append(inline(first[0].upper() + first[1:], param_names))
        out += render_blocks(doc["errors"][1:], param_names)

    if doc["notes"]:
        notes = render_blocks(doc["notes"], param_names)
        out += [".SH NOTES"] + (notes[1:] if notes[0] == ".PP" else notes)

    out.append(".SH SEE ALSO")
    names = re.findall(r"`(\w+)`", " ".join(text for _, text in doc["see_also"]))
    out += [f".BR {n} (3){',' if i < len(names) - 1 else ''}" for i, n in enumerate(names)]
    return "\n".join(out) + "\n"


def pages(version):
    """{file name: text} for every page."""
    functions = read_header(HEADER)
    abi_functions = read_header(ABI_HEADER)
    only_integer = abi_differences(functions, abi_functions)
    typedefs = handle_typedef(HEADER), handle_typedef(ABI_HEADER)
    old = fortran_interfaces(FORTRAN_OLD)
    f08 = fortran_interfaces(FORTRAN_F08)
    result = {}
    for name, function in functions.items():
        if name.startswith("PMPI"):
            continue
        doc = parse_doc(name, function[3])
        check(name, function, functions, doc)
        if name in only_integer:
            check_abi_note(name, doc, abi_functions)
        result[f"{name}.3"] = page(name, function, doc, old, f08, version, typedefs, name not in only_integer)
        result[f"P{name}.3"] = f".so man3/{name}.3\n"
    if not result:
        raise FormatError(f"{HEADER}: no functions found")
    return result


def cargo_version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as cargo:
        for line in cargo:
            match = re.match(r'^version = "([^"]+)"', line)
            if match:
                return match[1]
    raise FormatError("Cargo.toml: no version")


def main():
    parser = argparse.ArgumentParser(description="Writes mpi-info's section 3 man pages.")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "man", "man3"))
    parser.add_argument("--version")
    parser.add_argument("--list", action="store_true", help="print the pages' file names")
    options = parser.parse_args()
    try:
        written = pages(options.version or cargo_version())
    except FormatError as error:
        sys.exit(f"tools/manpages.py: {error}")
    if options.list:
        print("\n".join(sorted(written)))
        return
    os.makedirs(options.out, exist_ok=True)
    for file_name in os.listdir(options.out):
        if file_name.endswith(".3") and file_name not in written:
            os.remove(os.path.join(options.out, file_name))
    for file_name, text in written.items():
        path = os.path.join(options.out, file_name)
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)


if __name__ == "__main__":
    main()
