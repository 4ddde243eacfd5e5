//! What the command prints: compiler-style lines (`FILE:LINE:COL: warning: ... [code]`) or one
//! JSON array, written finding by finding as the inputs are checked.
//!
//! The text a person reads goes through one escaping rule, [`Escaped`]: the name of the input,
//! the message (whose keys and values the checker has already quoted with `Quoted`) and any
//! text of a vocabulary in it show their control characters and bytes that are not UTF-8 as
//! escapes, and are never cut. JSON keeps valid UTF-8 exactly and writes each byte that is not
//! UTF-8 as the lone surrogate `\udcNN` ([`JsonText`]).

use std::io::{self, Write};

use mpi_info::hints::{Escaped, JsonText};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// One HTML page (--report only).
    Html,
}

/// When to colour text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour: `auto` only on a terminal and never with `NO_COLOR` set (to anything
    /// but the empty string, as no-color.org says).
    pub fn enabled(self, terminal: bool) -> bool {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && !no_color,
        }
    }
}

pub use mpi_info::hints::Severity;

/// One finding at one place of an input; `key` and `value` are the bytes of the input.
pub use mpi_info::hints::TextFinding;

/// Writes the findings of each input as they come: text lines, or the members of one JSON
/// array, opened at the first finding and closed by [`Printer::finish`].
pub struct Printer<W: Write> {
    out: W,
    format: Format,
    color: bool,
    written: usize,
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, format: Format, color: bool) -> Self {
        Printer { out, format, color, written: 0 }
    }

    /// Writes the findings of the input named `file` (the bytes of its name).
    pub fn reports(&mut self, file: &[u8], reports: &[TextFinding<'_>]) -> io::Result<()> {
        for report in reports {
            match self.format {
                Format::Text | Format::Html => text_line(&mut self.out, file, report, self.color)?,
                Format::Json => {
                    self.out.write_all(if self.written == 0 { b"[\n" } else { b",\n" })?;
                    json_object(&mut self.out, file, report)?;
                }
            }
            self.written += 1;
        }
        Ok(())
    }

    /// Passes what is written on (after each input, so that its findings come before any
    /// message about the next on a terminal that shows both).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Ends the output (the JSON array's close, `[]` if it is empty) and flushes it.
    pub fn finish(mut self) -> io::Result<W> {
        if self.format == Format::Json {
            self.out.write_all(if self.written == 0 { b"[]\n" } else { b"\n]\n" })?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One finding as a JSON object, indented as a member of the array.
fn json_object(out: &mut impl Write, file: &[u8], report: &TextFinding<'_>) -> io::Result<()> {
    let optional = |text: Option<&[u8]>| text.map_or_else(|| "null".to_string(), |t| JsonText(t).to_string());
    write!(
        out,
        "  {{\n    \"file\": {},\n    \"line\": {},\n    \"column\": {},\n    \"key\": {},\n    \"value\": {},\n    \
         \"code\": {},\n    \"severity\": {},\n    \"message\": {}",
        JsonText(file),
        report.line,
        report.column,
        optional(report.key),
        optional(report.value),
        JsonText(report.code.as_bytes()),
        JsonText(report.severity.as_str().as_bytes()),
        JsonText(report.message.as_bytes()),
    )?;
    if let Some(suggestion) = &report.suggestion {
        write!(out, ",\n    \"suggestion\": {}", JsonText(suggestion.as_bytes()))?;
    }
    out.write_all(b"\n  }")
}

/// `FILE:LINE:COL: severity: message [code]`, as gcc and clang print, with gcc's colours.
fn text_line(out: &mut impl Write, file: &[u8], report: &TextFinding<'_>, color: bool) -> io::Result<()> {
    let (bold, severity_color, reset) = match (color, report.severity) {
        (false, _) => ("", "", ""),
        (true, Severity::Error) => ("\x1b[1m", "\x1b[1;31m", "\x1b[0m"),
        (true, Severity::Warning) => ("\x1b[1m", "\x1b[1;35m", "\x1b[0m"),
        (true, Severity::Note) => ("\x1b[1m", "\x1b[1;36m", "\x1b[0m"),
    };
    writeln!(
        out,
        "{bold}{}:{}:{}:{reset} {severity_color}{}:{reset} {} [{}]",
        Escaped(file),
        report.line,
        report.column,
        report.severity.as_str(),
        Escaped(report.message.as_bytes()),
        report.code
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn sample() -> TextFinding<'static> {
        TextFinding {
            line: 3,
            column: 1,
            key: Some(b"cb_bufer_size"),
            value: Some(b"4"),
            code: "unknown-key",
            severity: Severity::Warning,
            message: "unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?".into(),
            suggestion: Some("cb_buffer_size".into()),
        }
    }

    fn render(file: &[u8], reports: &[TextFinding<'_>], format: Format, color: bool) -> String {
        let mut printer = Printer::new(Vec::new(), format, color);
        printer.reports(file, reports).unwrap();
        String::from_utf8(printer.finish().unwrap()).unwrap()
    }

    #[test]
    fn text_is_compiler_style_and_plain_without_colour() {
        assert_eq!(
            render(b"hints.txt", &[sample()], Format::Text, false),
            "hints.txt:3:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]\n"
        );
        assert!(render(b"hints.txt", &[sample()], Format::Text, true).contains("\x1b[1;35mwarning:"));
    }

    #[test]
    fn json_has_every_field() {
        let parsed: Value = serde_json::from_str(&render(b"hints.txt", &[sample()], Format::Json, false)).unwrap();
        let object = &parsed[0];
        for field in ["file", "line", "column", "key", "value", "code", "severity", "message", "suggestion"] {
            assert!(object.get(field).is_some(), "{field}");
        }
        assert_eq!(object["file"], "hints.txt");
        assert_eq!(object["line"], 3);
        assert_eq!(render(b"hints.txt", &[], Format::Json, false), "[]\n");
    }

    #[test]
    fn json_is_one_array_over_several_inputs() {
        let mut printer = Printer::new(Vec::new(), Format::Json, false);
        printer.reports(b"a", &[sample()]).unwrap();
        printer.reports(b"b", &[]).unwrap();
        printer.reports(b"c", &[sample(), sample()]).unwrap();
        let parsed: Value = serde_json::from_slice(&printer.finish().unwrap()).unwrap();
        let files: Vec<&str> = parsed.as_array().unwrap().iter().map(|o| o["file"].as_str().unwrap()).collect();
        assert_eq!(files, ["a", "c", "c"]);
    }

    /// A name, a key, a value and a message with ESC, BEL, a line end and bytes that are not
    /// UTF-8: text shows them escaped, JSON gives them back.
    #[test]
    fn hostile_text_is_escaped_in_text_and_kept_in_json() {
        let file = b"h\x1b[31m\x07\n\xff.txt";
        let report = TextFinding {
            key: Some(b"k\x1b\xfe"),
            value: Some(b"v\x07\xc3"),
            message: "from a vocabulary: \u{1b}[2J\n\u{9b}".into(),
            ..sample()
        };
        let text = render(file, std::slice::from_ref(&report), Format::Text, false);
        assert_eq!(
            text,
            "h\\u{1b}[31m\\u{7}\\n\\xff.txt:3:1: warning: from a vocabulary: \\u{1b}[2J\\n\\u{9b} [unknown-key]\n"
        );
        let json = render(file, &[report], Format::Json, false);
        assert!(json.contains(r#""file": "h\u001b[31m\u0007\n\udcff.txt""#), "{json}");
        assert!(json.contains(r#""key": "k\u001b\udcfe""#), "{json}");
        assert!(json.contains(r#""value": "v\u0007\udcc3""#), "{json}");
        assert!(json.contains(r#""message": "from a vocabulary: \u001b[2J\n"#), "{json}");
    }

    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_is_returned() {
        for format in [Format::Text, Format::Json] {
            let mut printer = Printer::new(Full, format, false);
            let error = printer.reports(b"x", &[sample()]).unwrap_err();
            assert_eq!(error.raw_os_error(), Some(libc::ENOSPC));
        }
        assert!(Printer::new(Full, Format::Json, false).finish().is_err());
    }
}
