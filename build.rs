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
    // Rewrites the file only when its contents change, so the committed header keeps its mtime.
    bindings.write_to_file(Path::new(&crate_dir).join("include/mpi_info.h"));
}
