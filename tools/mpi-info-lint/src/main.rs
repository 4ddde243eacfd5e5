//! mpi-info-lint: checks MPI hint files against the field's hint vocabulary, the way each MPI
//! implementation would read them (man page: docs/man/mpi-info-lint.1).
//!
//! Exit status: 0 nothing found, 1 findings, 2 a usage error or an input that cannot be read.

mod input;
mod lint;
mod output;
mod syntax;
mod vocabulary;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use mpi_info::hints::{Targets, Vocabulary};

use crate::syntax::Syntax;

/// Checks MPI hint files: misspelled keys, values an implementation reads otherwise (a unit
/// suffix that atoi drops, a spelling it does not take), keys too long for it, malformed lines.
#[derive(Parser, Debug)]
#[command(name = "mpi-info-lint", version, about, long_about = None, after_help = EXIT_HELP)]
struct Args {
    /// Hint files to check ('-' is standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Check for these targets only: mpi, mpich, openmpi, pnetcdf, cray-mpich (comma-separated;
    /// default: all).
    #[arg(long, short = 't', value_name = "T[,T...]")]
    target: Option<String>,

    /// The files' syntax: romio (ROMIO_HINTS file, 'key value' lines), kv ('key=value' lines),
    /// pnetcdf (PNETCDF_HINTS, 'k=v;k=v'), cray (MPICH_MPIIO_HINTS, 'pattern:k=v:k=v').
    #[arg(long, short = 's', value_enum, default_value = "romio")]
    syntax: Syntax,

    /// Output: compiler-style lines, or one JSON array.
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: output::Format,

    /// Check the hint variables of this environment: ROMIO_HINTS (the file it names),
    /// PNETCDF_HINTS and MPICH_MPIIO_HINTS.
    #[arg(long)]
    env: bool,

    /// A vocabulary of your own (a layered library's hints), added to the built-in one.
    #[arg(long, value_name = "FILE")]
    vocabulary: Option<String>,

    /// Print the vocabulary (of one target, if named) and exit.
    #[arg(long, value_name = "TARGET", num_args = 0..=1, default_missing_value = "")]
    list: Option<String>,

    /// Print everything known about one key, with its sources, and exit.
    #[arg(long, value_name = "KEY")]
    explain: Option<String>,

    /// Colour: auto (only on a terminal, and never with NO_COLOR set), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: output::ColorChoice,
}

const EXIT_HELP: &str = "Exit status: 0 nothing found, 1 findings, 2 a usage error or an input that cannot be read.\n\
See man mpi-info-lint, and docs/hints.md for what is checked and where each rule comes from.";

/// What went wrong before or beside the checking: printed as "mpi-info-lint: ..." and exit 2.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("mpi-info-lint: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let builtin = match Vocabulary::builtin() {
        Ok(vocabulary) => vocabulary,
        Err(error) => return fail(format!("the built-in vocabulary cannot be read: {error}")),
    };
    let own;
    let vocabulary: &Vocabulary = match &args.vocabulary {
        None => builtin,
        Some(path) => {
            let text = match input::read(path) {
                Ok(text) => text,
                Err(error) => return fail(format!("{path}: {error}")),
            };
            own = match Vocabulary::from_json(&text, Some(builtin)) {
                Ok(vocabulary) => vocabulary,
                Err(error) => return fail(format!("{path}: not a vocabulary: {error}")),
            };
            &own
        }
    };
    let color = args.color.enabled(std::io::stdout().is_terminal());

    if (args.list.is_some() || args.explain.is_some()) && (!args.files.is_empty() || args.env) {
        return fail("--list and --explain take no FILE and no --env");
    }
    if let Some(target) = &args.list {
        let target = Some(target.as_str()).filter(|t| !t.is_empty());
        if let Some(name) = target {
            if vocabulary.target(name).is_none() {
                return fail(format!("--list: no target '{name}' (targets: {})", vocabulary::target_names(vocabulary)));
            }
        }
        return print(vocabulary::list(vocabulary, target, args.format));
    }
    if let Some(key) = &args.explain {
        return match vocabulary::explain(vocabulary, key, args.format) {
            Ok(text) => print(text),
            Err(message) => fail(message),
        };
    }

    let targets = match Targets::parse(vocabulary, args.target.as_deref()) {
        Ok(targets) => targets,
        Err(_) => {
            return fail(format!(
                "--target '{}': the targets are {}",
                args.target.as_deref().unwrap_or_default(),
                vocabulary::target_names(vocabulary)
            ))
        }
    };
    if args.files.is_empty() && !args.env {
        return fail("no FILE to check (try --help)");
    }

    let mut inputs: Vec<(String, Syntax, Result<Vec<u8>, String>)> = Vec::new();
    if args.env {
        inputs.extend(environment_inputs());
    }
    for file in &args.files {
        let label = if file == "-" { "<stdin>".to_string() } else { file.clone() };
        inputs.push((label, args.syntax, input::read(file)));
    }

    let mut reports = Vec::new();
    let mut unreadable = false;
    for (label, syntax, text) in inputs {
        let outcome = text.and_then(|text| lint::lint(&label, &text, syntax, vocabulary, &targets));
        match outcome {
            Ok(found) => reports.extend(found),
            Err(error) => {
                eprintln!("mpi-info-lint: {label}: {error}");
                unreadable = true;
            }
        }
    }
    let text = output::render(&reports, args.format, color);
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()).is_err() {
        return ExitCode::from(2);
    }
    // Notes never make the status 1.
    let findings = reports.iter().any(|r| r.severity != output::Severity::Note);
    match (unreadable, findings) {
        (true, _) => ExitCode::from(2),
        (false, false) => ExitCode::SUCCESS,
        (false, true) => ExitCode::from(1),
    }
}

/// Prints to standard output; exit 2 if it cannot be written.
fn print(text: String) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

/// The hint variables of this environment, each with its syntax: ROMIO_HINTS names a file,
/// the others hold the hints.
fn environment_inputs() -> Vec<(String, Syntax, Result<Vec<u8>, String>)> {
    let mut inputs = Vec::new();
    if let Some(path) = std::env::var_os("ROMIO_HINTS") {
        let path = path.to_string_lossy().into_owned();
        let text = input::read(&path).map_err(|error| format!("(named by ROMIO_HINTS) {error}"));
        inputs.push((path, Syntax::Romio, text));
    }
    for (variable, syntax) in [("PNETCDF_HINTS", Syntax::Pnetcdf), ("MPICH_MPIIO_HINTS", Syntax::Cray)] {
        if let Some(value) = std::env::var_os(variable) {
            use std::os::unix::ffi::OsStrExt;
            inputs.push((variable.to_string(), syntax, Ok(value.as_bytes().to_vec())));
        }
    }
    inputs
}
