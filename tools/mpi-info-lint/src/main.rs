//! mpi-info-lint: checks MPI hint files against the field's hint vocabulary, the way each MPI
//! implementation would read them (man page: docs/man/mpi-info-lint.1).
//!
//! Exit status: 0 nothing found or notes only, 1 errors or warnings, 2 a usage error, an input
//! that cannot be read or an error writing the output. With --report, it shows a report of
//! libmpi_info_hintcheck (src/report/): 0 shown, 2 a usage error, a report that cannot be read
//! or an error writing. Findings are written as each input is checked; when the reader of the
//! output has gone (a closed pipe), the command stops with exit status 0 and no message.

mod input;
mod output;
mod report;
mod stdio;
mod syntax;
mod vocabulary;

use std::ffi::OsString;
use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use mpi_info::hints::{self, Escaped, Targets, Vocabulary};

use crate::output::{Printer, Severity};

/// The built-in vocabulary, whole: the library's checks with the descriptions of each reader.
const DOCUMENT: &[u8] = include_bytes!("../../../data/hints.json");
use crate::stdio::Stdout;
use crate::syntax::Syntax;

/// Checks MPI hint files: misspelled keys, values an implementation reads otherwise (a unit
/// suffix that atoi drops, a spelling it does not take), keys too long for it, malformed lines.
#[derive(Parser, Debug)]
#[command(name = "mpi-info-lint", version, about, long_about = None, after_help = EXIT_HELP)]
struct Args {
    /// Hint files to check ('-' is standard input).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Check for these targets only: mpi, mpich, openmpi, pnetcdf, cray-mpich, each optionally
    /// at a release: NAME@4.0.2, NAME@4.1 (the series), NAME@main (comma-separated; default:
    /// all, each at its newest release).
    #[arg(long, short = 't', value_name = "T[,T...]")]
    target: Option<String>,

    /// The files' syntax: romio (ROMIO_HINTS file, 'key value' lines; the default), kv
    /// ('key=value' lines), pnetcdf (PNETCDF_HINTS, 'k=v;k=v'), cray (MPICH_MPIIO_HINTS,
    /// 'pattern:k=v:k=v').
    #[arg(long, short = 's', value_enum)]
    syntax: Option<Syntax>,

    /// Output: compiler-style lines, or one JSON array; with --report, text or one HTML page.
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: output::Format,

    /// Check the hint variables of this environment: ROMIO_HINTS (the file it names),
    /// PNETCDF_HINTS and MPICH_MPIIO_HINTS.
    #[arg(long)]
    env: bool,

    /// A vocabulary of your own (a layered library's hints), added to the built-in one.
    #[arg(long, value_name = "FILE")]
    vocabulary: Option<PathBuf>,

    /// Print the vocabulary (of one target, if named) and exit.
    #[arg(long, value_name = "TARGET", num_args = 0..=1, default_missing_value = "")]
    list: Option<String>,

    /// Print everything known about one key, with its sources, and exit.
    #[arg(long, value_name = "KEY")]
    explain: Option<OsString>,

    /// Show a report of libmpi_info_hintcheck (its JSON file; '-' is standard input) for a
    /// person: as text, or as one HTML page with --format html.
    #[arg(long, value_name = "REPORT")]
    report: Option<PathBuf>,

    /// Colour: auto (only on a terminal, and never with NO_COLOR set), always, never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: output::ColorChoice,
}

const EXIT_HELP: &str = "Exit status: 0 nothing found or notes only (with --report: the report \
shown), 1 errors or warnings, 2 a usage error, an input that cannot be read or an error writing \
the output.\n\
See man mpi-info-lint, and docs/hints.md for what is checked and where each rule comes from.";

/// Writes "mpi-info-lint: MESSAGE" on standard error, escaped as every text output is
/// ([`Escaped`]: a name or a vocabulary's text in it shows no control character); an error
/// writing it is ignored, there being nowhere left to say it.
fn complain(message: impl Display) {
    let message = message.to_string();
    let _ = writeln!(io::stderr().lock(), "mpi-info-lint: {}", Escaped(message.as_bytes()));
}

/// What went wrong before or beside the checking: said on standard error, and exit 2.
fn fail(message: impl Display) -> ExitCode {
    complain(message);
    ExitCode::from(2)
}

fn main() -> ExitCode {
    match run() {
        Ok(status) => status,
        // The reader of the output has gone (`mpi-info-lint big.txt | head -1`): it read what it
        // wanted, so the command stops there, without a word.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => fail(format_args!("standard output: {}", input::describe(&error))),
    }
}

/// The command, to its exit status; `Err` is an error writing standard output.
fn run() -> io::Result<ExitCode> {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) if !error.use_stderr() => {
            // --help and --version.
            return print(error.render().to_string());
        }
        Err(error) => {
            // clap's message shows the arguments as given: escaped like every message.
            let mut stderr = io::stderr().lock();
            for line in error.render().to_string().lines() {
                let _ = writeln!(stderr, "{}", Escaped(line.as_bytes()));
            }
            return Ok(ExitCode::from(2));
        }
    };
    if let Some(path) = &args.report {
        return show_report(path, &args);
    }
    if args.format == output::Format::Html {
        return Ok(fail("--format html is for --report"));
    }
    // The whole built-in document, with the prose --explain shows (the library embeds it
    // without); read once, for the life of the command.
    let builtin: &'static Vocabulary = match Vocabulary::from_json(DOCUMENT, None) {
        Ok(vocabulary) => Box::leak(Box::new(vocabulary)),
        Err(error) => return Ok(fail(format_args!("the built-in vocabulary cannot be read: {error}"))),
    };
    let own;
    let vocabulary: &Vocabulary = match &args.vocabulary {
        None => builtin,
        Some(path) => {
            let (label, text) = Input::file(path, Syntax::Romio).read();
            let name = Escaped(&label);
            let text = match text {
                Ok(text) => text,
                Err(error) => return Ok(fail(format_args!("{name}: {error}"))),
            };
            own = match Vocabulary::from_json(&text, Some(builtin)) {
                Ok(vocabulary) => vocabulary,
                Err(error) => return Ok(fail(format_args!("{name}: not a vocabulary: {error}"))),
            };
            &own
        }
    };
    let color = args.color.enabled(io::stdout().is_terminal());

    if (args.list.is_some() || args.explain.is_some()) && (!args.files.is_empty() || args.env) {
        return Ok(fail("--list and --explain take no FILE and no --env"));
    }
    if let Some(target) = &args.list {
        let target = Some(target.as_str()).filter(|t| !t.is_empty());
        if let Some(name) = target {
            if vocabulary.target(name).is_none() {
                let names = vocabulary::target_names(vocabulary);
                return Ok(fail(format_args!("--list: no target '{name}' (targets: {names})")));
            }
        }
        return print(vocabulary::list(vocabulary, target, args.format));
    }
    if let Some(key) = &args.explain {
        return match vocabulary::explain(vocabulary, key.as_bytes(), args.format) {
            Ok(text) => print(text),
            Err(message) => Ok(fail(message)),
        };
    }

    let targets = match Targets::parse(vocabulary, args.target.as_deref()) {
        Ok(targets) => targets,
        Err(error) => {
            return Ok(fail(format_args!(
                "--target '{}': {error}; the targets are {} (each may name a release: mpich@4.0.2, openmpi@4.1)",
                Escaped(args.target.as_deref().unwrap_or_default().as_bytes()),
                vocabulary::target_names(vocabulary)
            )))
        }
    };
    for note in &targets.notes {
        complain(format_args!("note: {note}"));
    }
    if args.files.is_empty() && !args.env {
        return Ok(fail("no FILE to check (try --help)"));
    }

    let mut inputs = Vec::new();
    if args.env {
        inputs.extend(environment_inputs());
    }
    let syntax = args.syntax.unwrap_or(Syntax::Romio);
    inputs.extend(args.files.iter().map(|file| Input::file(file, syntax)));

    // One input at a time: read, checked, its findings written, then dropped.
    let mut printer = Printer::new(Stdout::new(), args.format, color);
    let (mut found, mut unreadable) = (false, false);
    for input in inputs {
        let syntax = input.syntax;
        let (label, text) = input.read();
        let outcome = text.and_then(|text| {
            let reports = hints::check_text(&text, syntax.into(), vocabulary, &targets)?;
            // Notes never make the status 1.
            found |= reports.iter().any(|report| report.severity != Severity::Note);
            Ok(printer.reports(&label, &reports).and_then(|()| printer.flush()))
        });
        match outcome {
            Ok(written) => written?,
            Err(error) => {
                complain(format_args!("{}: {error}", Escaped(&label)));
                unreadable = true;
            }
        }
    }
    printer.finish()?;
    Ok(match (unreadable, found) {
        (true, _) => ExitCode::from(2),
        (false, false) => ExitCode::SUCCESS,
        (false, true) => ExitCode::from(1),
    })
}

/// --report: the report at `path` shown as text or HTML (exit status 0), or why it cannot be
/// (exit status 2). It takes none of the options of the checking.
fn show_report(path: &Path, args: &Args) -> io::Result<ExitCode> {
    let mut others = Vec::new();
    if !args.files.is_empty() {
        others.push("FILE");
    }
    for (given, option) in [
        (args.env, "--env"),
        (args.list.is_some(), "--list"),
        (args.explain.is_some(), "--explain"),
        (args.target.is_some(), "--target"),
        (args.syntax.is_some(), "--syntax"),
        (args.vocabulary.is_some(), "--vocabulary"),
    ] {
        if given {
            others.push(option);
        }
    }
    if !others.is_empty() {
        return Ok(fail(format_args!("--report takes no {}", others.join(", "))));
    }
    if args.format == output::Format::Json {
        return Ok(fail("--report shows a report as text or html: the report itself is the JSON"));
    }
    let (label, bytes) = if path.as_os_str() == "-" {
        (b"<stdin>".to_vec(), input::read_stdin_up_to(input::REPORT))
    } else {
        (path.as_os_str().as_bytes().to_vec(), input::read_up_to(path, input::REPORT))
    };
    let parsed = bytes.and_then(|bytes| report::parse(&bytes));
    let report = match parsed {
        Ok(report) => report,
        Err(error) => return Ok(fail(format_args!("{}: {error}", Escaped(&label)))),
    };
    let mut stdout = Stdout::new();
    match args.format {
        output::Format::Html => report::html::write(&mut stdout, &label, &report)?,
        _ => {
            let color = args.color.enabled(io::stdout().is_terminal());
            report::text::write(&mut stdout, &label, &report, color)?
        }
    }
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` on standard output: exit status 0, or the error writing it.
fn print(text: String) -> io::Result<ExitCode> {
    let mut stdout = Stdout::new();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// An input to check, read when its turn comes.
struct Input {
    /// The name findings and messages show (the bytes of a file's name, whatever they are).
    label: Vec<u8>,
    syntax: Syntax,
    source: Source,
}

enum Source {
    Stdin,
    File(PathBuf),
    /// The file an environment variable names.
    NamedBy(&'static str, PathBuf),
    /// An environment variable's own text.
    Text(Vec<u8>),
}

impl Input {
    /// A FILE argument: a path, or `-` for standard input (shown as `<stdin>`).
    fn file(path: &Path, syntax: Syntax) -> Input {
        if path.as_os_str() == "-" {
            return Input { label: b"<stdin>".to_vec(), syntax, source: Source::Stdin };
        }
        Input { label: path.as_os_str().as_bytes().to_vec(), syntax, source: Source::File(path.to_owned()) }
    }

    /// Its name, and its text or why it cannot be read.
    fn read(self) -> (Vec<u8>, Result<Vec<u8>, String>) {
        let text = match self.source {
            Source::Stdin => input::read_stdin(),
            Source::File(path) => input::read(&path),
            Source::NamedBy(variable, path) => {
                input::read(&path).map_err(|error| format!("(named by {variable}) {error}"))
            }
            Source::Text(text) => Ok(text),
        };
        (self.label, text)
    }
}

/// The hint variables of this environment, each with its syntax: ROMIO_HINTS names a file
/// (any bytes, as the C library's `open` takes them), the others hold the hints.
fn environment_inputs() -> Vec<Input> {
    let mut inputs = Vec::new();
    if let Some(path) = std::env::var_os("ROMIO_HINTS") {
        let label = path.as_bytes().to_vec();
        inputs.push(Input { label, syntax: Syntax::Romio, source: Source::NamedBy("ROMIO_HINTS", path.into()) });
    }
    for (variable, syntax) in [("PNETCDF_HINTS", Syntax::Pnetcdf), ("MPICH_MPIIO_HINTS", Syntax::Cray)] {
        if let Some(value) = std::env::var_os(variable) {
            let source = Source::Text(value.into_vec());
            inputs.push(Input { label: variable.as_bytes().to_vec(), syntax, source });
        }
    }
    inputs
}
