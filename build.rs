//! Generates include/mpi_info.h from the sources with cbindgen, and gives the shared library
//! its soname.

use std::env;
use std::path::Path;

fn main() {
    let crate_dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    // Before 1.0 a minor release may break the ABI, so the soname carries both (as cargo-c does).
    let soname = if major == "0" { format!("libmpi_info.so.0.{minor}") } else { format!("libmpi_info.so.{major}") };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    // Once loaded, the shared library stays mapped until the process ends, even after the last
    // dlclose: threads and fork handlers may still run its code, and the objects it holds stay
    // reachable (and usable again after a new dlopen). glibc does the same for any library
    // with thread-local destructors.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");

    println!("cargo:rerun-if-changed=src");
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
    let header = String::from_utf8(generated).expect("cbindgen writes UTF-8");
    let header = mark_section(&header, |line| line.starts_with("#define MPIX_"), MPIX_CONSTANTS, MPIX_CONSTANTS_END);
    let is_mpix_function = |line: &str| line.starts_with("int MPIX_") || line.starts_with("int PMPIX_");
    let header = mark_section(&header, is_mpix_function, MPIX_FUNCTIONS, MPIX_FUNCTIONS_END);
    // Rewrites the file only when its contents change, so the committed header keeps its mtime.
    let path = Path::new(&crate_dir).join("include/mpi_info.h");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(header.as_str()) {
        std::fs::write(&path, header).expect("include/mpi_info.h is writable");
    }
}

// The header's MPIX_ section (src/capi/mpix.rs), marked where it begins and ends: cbindgen puts
// the constants among the others and the functions after the MPI_ ones.
const MPIX_CONSTANTS: &str = "/* ======== MPIX_ constants: the hint toolkit for layered libraries (docs/mpix.md) ======== */";
const MPIX_CONSTANTS_END: &str = "/* ======== end of the MPIX_ constants ======== */";
const MPIX_FUNCTIONS: &str = "/* ======== MPIX_ functions: the hint toolkit for layered libraries ========
 * Not part of the MPI standard: typed values, merge, hint text, serialization and equality,
 * each with a PMPIX_ twin. Every function follows the rules of the MPI_ functions above
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
