//! Generates the two headers from the sources with cbindgen, and gives the shared library its
//! soname.
//!
//! The crate builds two libraries (src/capi/handle.rs): `libmpi_info`, whose `MPI_Info` is an
//! `int` (include/mpi_info.h), and with the `abi` feature `libmpi_info_abi`, whose `MPI_Info` is
//! the MPI-5.0 standard ABI's pointer (include/mpi_info_abi.h). cbindgen reads the sources once
//! and wraps what only one build has in `#if defined(MPI_INFO_ABI_BUILD)` blocks; each header
//! takes its own build's blocks. Either build writes both headers.

use std::env;
use std::path::Path;

fn main() {
    let crate_dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let library = if env::var_os("CARGO_FEATURE_ABI").is_some() { "libmpi_info_abi" } else { "libmpi_info" };
    // Before 1.0 a minor release may break the ABI, so the soname carries both (as cargo-c does).
    let soname = if major == "0" { format!("{library}.so.0.{minor}") } else { format!("{library}.so.{major}") };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    // Once loaded, the shared library stays mapped until the process ends, even after the last
    // dlclose: threads and fork handlers may still run its code, and the objects it holds stay
    // reachable (and usable again after a new dlopen). glibc does the same for any library
    // with thread-local destructors.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");

    println!("cargo:rerun-if-changed=src");
    // Without the C API (the `c-api` feature off: the core linked into hintcheck/) there is no
    // header to write, and the committed ones stay as the full build wrote them.
    if env::var_os("CARGO_FEATURE_C_API").is_none() {
        return;
    }
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let config = cbindgen::Config::from_file(Path::new(&crate_dir).join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen can parse src/");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("cbindgen writes UTF-8");

    for (abi, file) in [(false, "mpi_info.h"), (true, "mpi_info_abi.h")] {
        let header = one_build(&generated, abi);
        let header = if abi { abi_header(&header) } else { header };
        let header = shared_names(&header);
        let header = mark_section(&header, |line| line.starts_with("#define MPIX_"), MPIX_CONSTANTS, MPIX_CONSTANTS_END);
        let is_mpix_function = |line: &str| line.starts_with("int MPIX_") || line.starts_with("int PMPIX_");
        let header = mark_section(&header, is_mpix_function, MPIX_FUNCTIONS, MPIX_FUNCTIONS_END);
        // Rewrites the file only when its contents change, so the committed header keeps its mtime.
        let path = Path::new(&crate_dir).join("include").join(file);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(header.as_str()) {
            std::fs::write(&path, header).unwrap_or_else(|e| panic!("include/{file} is not writable: {e}"));
        }
    }
}

/// The define cbindgen.toml gives the `abi` feature's items.
const ABI_BUILD: &str = "MPI_INFO_ABI_BUILD";

/// The header of one build: the lines of its own `#if [!]defined(MPI_INFO_ABI_BUILD)` blocks,
/// without the conditionals, and none of the other build's. cbindgen puts one item in each
/// block, with no other conditional inside.
fn one_build(header: &str, abi: bool) -> String {
    let (ours, theirs) = if abi {
        (format!("#if defined({ABI_BUILD})"), format!("#if !defined({ABI_BUILD})"))
    } else {
        (format!("#if !defined({ABI_BUILD})"), format!("#if defined({ABI_BUILD})"))
    };
    let mut lines = Vec::new();
    let mut keep: Option<bool> = None;
    for line in header.split('\n') {
        if line == ours || line == theirs {
            assert!(keep.is_none(), "a {ABI_BUILD} block inside another");
            keep = Some(line == ours);
        } else if keep.is_some() && line == "#endif" {
            keep = None;
        } else if keep != Some(false) {
            lines.push(line);
        }
    }
    assert!(keep.is_none(), "a {ABI_BUILD} block without its #endif");
    // A dropped block leaves the blank lines around it next to each other.
    lines.dedup_by(|a, b| a.is_empty() && b.is_empty());
    lines.join("\n")
}

/// The ABI header's own name, include guard and predefined handles. The handles are written as
/// the standard's header writes them, `((MPI_Info)0x00000130)`: cbindgen writes `(MPI_Info)304`.
fn abi_header(header: &str) -> String {
    let replace = |header: String, from: &str, to: &str| {
        assert!(header.contains(from), "the generated header has {from:?}");
        header.replace(from, to)
    };
    let mut header = replace(header.to_string(), "#ifndef MPI_INFO_H\n#define MPI_INFO_H", "#ifndef MPI_INFO_ABI_H\n#define MPI_INFO_ABI_H");
    header = replace(header, "#endif  /* MPI_INFO_H */", "#endif  /* MPI_INFO_ABI_H */");
    header = replace(header, " * mpi_info.h - the MPI info object (MPI_Info_*), a C library.", ABI_TITLE);
    header
        .split('\n')
        .map(|line| match line.strip_prefix("#define ").and_then(|rest| rest.split_once(" (MPI_Info)")) {
            Some((name, value)) => {
                let value: u32 = value.parse().expect("a predefined handle is a number");
                format!("#define {name} ((MPI_Info)0x{value:08x})")
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const ABI_TITLE: &str = " * mpi_info_abi.h - the MPI info object (MPI_Info_*), a C library: the build for programs
 * compiled against the MPI-5.0 standard ABI (libmpi_info_abi), whose handles are pointers.
 * Its types and constants are the standard ABI mpi.h's.";

/// The names a host MPI's `mpi.h` defines too (docs/embedding.md), taken from where cbindgen
/// put them and written in one block that defines each only when no `mpi.h` came first:
/// - `MPI_Fint` only when no `mpi.h` came first (`MPI_VERSION` undefined): C99 forbids a second
///   typedef, and nothing in the header uses it;
/// - the constants when none came first or an MPI-1 one did, each only where it is not yet a
///   macro. An `mpi.h` of MPI-2 or later has every one of them, as macros or enum constants.
fn shared_names(header: &str) -> String {
    let mut items: Vec<Vec<String>> = split_items(header);
    let defines = |item: &[String], name: &str| item.last().is_some_and(|line| line.starts_with(&format!("#define {name} ")));
    // The ABI header has no MPI_Fint, as the standard ABI's mpi.h has none.
    let mut fint = None;
    let mut constants = Vec::new();
    let mut at = None;
    let mut kept = Vec::new();
    for item in items.drain(..) {
        let shared_constant = SHARED_CONSTANTS.iter().any(|name| defines(&item, name));
        let is_fint = item.last().is_some_and(|line| line == "typedef int MPI_Fint;");
        if shared_constant || is_fint {
            at.get_or_insert(kept.len());
            if is_fint {
                fint = Some(item);
            } else {
                constants.push(item);
            }
        } else {
            kept.push(item);
        }
    }
    assert_eq!(constants.len(), SHARED_CONSTANTS.len(), "every shared constant is in the header");
    let mut block = vec![vec![SHARED_BEGIN.to_string()]];
    let conditional = |condition: String, mut item: Vec<String>| {
        let declaration = item.pop().expect("an item has its declaration");
        item.extend([condition, declaration, "#endif".to_string()]);
        item
    };
    if let Some(fint) = fint {
        block.push(conditional("#ifndef MPI_VERSION".to_string(), fint));
    }
    block.push(vec!["#if !defined(MPI_VERSION) || MPI_VERSION < 2".to_string()]);
    for item in constants {
        let name = item.last().and_then(|define| define.split(' ').nth(1)).expect("#define NAME VALUE").to_string();
        block.push(conditional(format!("#ifndef {name}"), item));
    }
    block.push(vec!["#endif".to_string(), SHARED_END.to_string()]);
    let at = at.expect("the header has the shared names");
    kept.splice(at..at, block);
    kept.into_iter().map(|item| item.join("\n")).collect::<Vec<_>>().join("\n\n")
}

/// The constants of the header that every MPI library's `mpi.h` defines too.
const SHARED_CONSTANTS: [&str; 11] = [
    "MPI_SUCCESS",
    "MPI_ERR_ARG",
    "MPI_ERR_OTHER",
    "MPI_ERR_INTERN",
    "MPI_ERR_INFO_KEY",
    "MPI_ERR_INFO_NOKEY",
    "MPI_ERR_INFO_VALUE",
    "MPI_ERR_INFO",
    "MPI_ERR_NO_MEM",
    "MPI_MAX_ERROR_STRING",
    "MPI_THREAD_MULTIPLE",
];
const SHARED_BEGIN: &str = "/* ======== Names shared with MPI: defined here unless a host MPI's mpi.h defines them ========
 * Every MPI library's mpi.h defines these too (docs/embedding.md). After one (MPI_VERSION is
 * defined), this header leaves them to it: the constants when it is of MPI-2 or later, which
 * has them all, and MPI_Fint (if this header has it) always; an MPI-1 mpi.h keeps the
 * constants it defines as macros. The values are the MPI-5.0 standard ABI's: the ones this
 * library returns. */";
const SHARED_END: &str = "/* ======== end of the names shared with MPI ======== */";

/// The header as cbindgen's items: runs of lines separated by blank lines (a doc comment and
/// its declaration are one item).
fn split_items(header: &str) -> Vec<Vec<String>> {
    header.split("\n\n").map(|item| item.split('\n').map(str::to_string).collect()).collect()
}

// The header's MPIX_ section (src/capi/mpix.rs), marked where it begins and ends: cbindgen puts
// the constants among the others and the functions after the MPI_ ones.
const MPIX_CONSTANTS: &str = "/* ======== MPIX_ constants: the hint toolkit for layered libraries (docs/mpix.md) ======== */";
const MPIX_CONSTANTS_END: &str = "/* ======== end of the MPIX_ constants ======== */";
const MPIX_FUNCTIONS: &str = "/* ======== MPIX_ functions: the hint toolkit for layered libraries ========
 * Not part of the MPI standard: this library's error messages for a host MPI's error functions
 * (docs/embedding.md), then typed values, merge, hint text, serialization and equality, each
 * with a PMPIX_ twin. Every function follows the rules of the MPI_ functions above
 * (arguments checked left to right, no output and no change on error). docs/mpix.md has the
 * details, the serialization format byte by byte among them. */";
const MPIX_FUNCTIONS_END: &str = "/* ======== end of the MPIX_ functions ======== */";

/// `header` with `begin` on a line of its own before the doc comment of the first line that
/// `in_section` picks, and `end` after the last such line.
fn mark_section(header: &str, in_section: impl Fn(&str) -> bool, begin: &str, end: &str) -> String {
    let lines: Vec<&str> = header.split('\n').collect();
    let first = lines.iter().position(|line| in_section(line)).expect("the header has the section");
    let last = lines.iter().rposition(|line| in_section(line)).expect("the header has the section");
    let start = lines[..first].iter().rposition(|line| line.starts_with("/**")).unwrap_or(first);
    let mut marked = Vec::with_capacity(lines.len() + 4);
    marked.extend_from_slice(&lines[..start]);
    marked.extend([begin, ""]);
    marked.extend_from_slice(&lines[start..=last]);
    marked.extend(["", end]);
    marked.extend_from_slice(&lines[last + 1..]);
    marked.join("\n")
}
