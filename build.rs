//! Generates the two headers from the sources with cbindgen, and gives the shared library its
//! soname.
//!
//! The crate builds two libraries (src/capi/handle.rs): `libmpi_info`, whose `MPI_Info` is an
//! `int` (include/mpi_info.h), and with the `abi` feature `libmpi_info_abi`, whose `MPI_Info` is
//! the MPI-5.0 standard ABI's pointer (include/mpi_info_abi.h). cbindgen runs once per header,
//! with that header's include guard, and writes what only one build has under
//! `#if [!]defined(MPI_INFO_ABI_BUILD)` (cbindgen.toml); each header keeps its own build's
//! blocks. Either build writes both headers. What cbindgen.toml cannot say is done by
//! tools/cheader.rs (tested by tests/cheader.rs).

#[path = "tools/cheader.rs"]
mod cheader;

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
    embedded_vocabulary(&crate_dir);
    // Without the C API (the `c-api` feature off: the core linked into hintcheck/) there is no
    // header to write, and the committed ones stay as the full build wrote them.
    if env::var_os("CARGO_FEATURE_C_API").is_none() {
        return;
    }
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=tools/cheader.rs");
    let config = cbindgen::Config::from_file(Path::new(&crate_dir).join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    for (abi, file, guard) in [(false, "mpi_info.h", "MPI_INFO_H"), (true, "mpi_info_abi.h", "MPI_INFO_ABI_H")] {
        let bindings = cbindgen::Builder::new()
            .with_crate(&crate_dir)
            .with_config(config.clone())
            .with_include_guard(guard)
            .generate()
            .expect("cbindgen can parse src/");
        let mut generated = Vec::new();
        bindings.write(&mut generated);
        let generated = String::from_utf8(generated).expect("cbindgen writes UTF-8");
        let header = header(&generated, abi).unwrap_or_else(|e| panic!("include/{file}: {e}"));
        // Rewrites the file only when its contents change, so the committed header keeps its mtime.
        let path = Path::new(&crate_dir).join("include").join(file);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(header.as_str()) {
            std::fs::write(&path, header).unwrap_or_else(|e| panic!("include/{file} is not writable: {e}"));
        }
    }
}

/// One build's header from cbindgen's text: its own `MPI_INFO_ABI_BUILD` blocks, the ABI
/// build's handles as the standard writes them, and the MPIX_ part marked.
fn header(generated: &str, abi: bool) -> Result<String, String> {
    let header = cheader::one_build(generated, cheader::ABI_BUILD, abi)?;
    let header = if abi { cheader::abi_handles(&header)? } else { header };
    let header =
        cheader::mark_section(&header, |line| line.starts_with("#define MPIX_"), MPIX_CONSTANTS, MPIX_CONSTANTS_END)?;
    let is_mpix_function = |line: &str| line.starts_with("int MPIX_") || line.starts_with("int PMPIX_");
    cheader::mark_section(&header, is_mpix_function, MPIX_FUNCTIONS, MPIX_FUNCTIONS_END)
}

// The header's MPIX_ part (src/capi/mpix.rs), marked where it begins and ends: cbindgen puts
// the constants among the others and the functions after the MPI_ ones.
const MPIX_CONSTANTS: &str =
    "/* ======== MPIX_ constants: the hint toolkit for layered libraries (docs/mpix.md) ======== */";
const MPIX_CONSTANTS_END: &str = "/* ======== end of the MPIX_ constants ======== */";
const MPIX_FUNCTIONS: &str = "/* ======== MPIX_ functions: the hint toolkit for layered libraries ========
 * Not part of the MPI standard: this library's error messages for a host MPI's error functions
 * (docs/embedding.md), then typed values, merge, hint text, serialization and equality, each
 * with a PMPIX_ twin. Every function follows the rules of the MPI_ functions above
 * (arguments checked left to right, no output and no change on error). docs/mpix.md has the
 * details, the serialization format byte by byte among them. */";
const MPIX_FUNCTIONS_END: &str = "/* ======== end of the MPIX_ functions ======== */";

/// The built-in hint vocabulary as the library embeds it (src/hints/vocab.rs, `BUILTIN_TEXT`):
/// `data/hints.json` without the prose written for a person reading an entry (each reader's
/// `how` and `reports_how`, which no check uses), and without blanks, in OUT_DIR: less than half
/// the document (BENCHMARKS.md, Size). mpi-info-lint embeds the whole document, for --explain. The library reads and checks the
/// embedded text on first use, and its tests read both.
fn embedded_vocabulary(crate_dir: &str) {
    println!("cargo:rerun-if-changed=data/hints.json");
    let path = Path::new(crate_dir).join("data").join("hints.json");
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut document: serde_json::Value =
        serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
    let keys = document.get_mut("keys").and_then(|keys| keys.as_array_mut());
    for entry in keys.into_iter().flatten() {
        let readers = entry.get_mut("readers").and_then(|readers| readers.as_array_mut());
        for reader in readers.into_iter().flatten().filter_map(|reader| reader.as_object_mut()) {
            reader.remove("how");
            reader.remove("reports_how");
        }
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("hints.json");
    let compact = serde_json::to_vec(&document).expect("a JSON value is written");
    if std::fs::read(&out).ok().as_deref() != Some(compact.as_slice()) {
        std::fs::write(&out, compact).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    }
}
