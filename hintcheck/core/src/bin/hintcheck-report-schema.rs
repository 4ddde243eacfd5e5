//! Writes the JSON Schema of the hintcheck report (made from the report's types) to the file
//! named by its argument, or to standard output: `make hintcheck-schema` writes
//! hintcheck/report.schema.json with it, and a unit test checks that the committed file is the
//! one the types make.

fn main() {
    let schema = mpi_info_hintcheck::schema_json();
    match std::env::args_os().nth(1) {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, schema) {
                eprintln!("hintcheck-report-schema: {}: {e}", path.to_string_lossy());
                std::process::exit(1);
            }
        }
        None => print!("{schema}"),
    }
}
