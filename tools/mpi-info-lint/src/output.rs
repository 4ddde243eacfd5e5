//! What the command prints: compiler-style lines (`FILE:LINE:COL: warning: ... [code]`) or one
//! JSON array.

use serde_json::{json, Value};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
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

/// One finding at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub key: Option<String>,
    pub value: Option<String>,
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub suggestion: Option<String>,
}

/// The whole output for these reports.
pub fn render(reports: &[Report], format: Format, color: bool) -> String {
    match format {
        Format::Json => {
            let array: Vec<Value> = reports.iter().map(to_json).collect();
            let mut text = serde_json::to_string_pretty(&Value::Array(array)).unwrap_or_else(|_| "[]".into());
            text.push('\n');
            text
        }
        Format::Text => reports.iter().map(|report| text_line(report, color)).collect(),
    }
}

fn to_json(report: &Report) -> Value {
    let mut object = json!({
        "file": report.file,
        "line": report.line,
        "column": report.column,
        "key": report.key,
        "value": report.value,
        "code": report.code,
        "severity": report.severity.as_str(),
        "message": report.message,
    });
    if let Some(suggestion) = &report.suggestion {
        object["suggestion"] = json!(suggestion);
    }
    object
}

/// `FILE:LINE:COL: severity: message [code]`, as gcc and clang print, with gcc's colours.
fn text_line(report: &Report, color: bool) -> String {
    let (bold, severity_color, reset) = match (color, report.severity) {
        (false, _) => ("", "", ""),
        (true, Severity::Error) => ("\x1b[1m", "\x1b[1;31m", "\x1b[0m"),
        (true, Severity::Warning) => ("\x1b[1m", "\x1b[1;35m", "\x1b[0m"),
        (true, Severity::Note) => ("\x1b[1m", "\x1b[1;36m", "\x1b[0m"),
    };
    format!(
        "{bold}{}:{}:{}:{reset} {severity_color}{}:{reset} {} [{}]\n",
        report.file,
        report.line,
        report.column,
        report.severity.as_str(),
        report.message,
        report.code
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            file: "hints.txt".into(),
            line: 3,
            column: 1,
            key: Some("cb_bufer_size".into()),
            value: Some("4".into()),
            code: "unknown-key",
            severity: Severity::Warning,
            message: "unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'?".into(),
            suggestion: Some("cb_buffer_size".into()),
        }
    }

    #[test]
    fn text_is_compiler_style_and_plain_without_colour() {
        assert_eq!(
            render(&[sample()], Format::Text, false),
            "hints.txt:3:1: warning: unknown hint 'cb_bufer_size'; did you mean 'cb_buffer_size'? [unknown-key]\n"
        );
        assert!(render(&[sample()], Format::Text, true).contains("\x1b[1;35mwarning:"));
    }

    #[test]
    fn json_has_every_field() {
        let parsed: Value = serde_json::from_str(&render(&[sample()], Format::Json, false)).unwrap();
        let object = &parsed[0];
        for field in ["file", "line", "column", "key", "value", "code", "severity", "message", "suggestion"] {
            assert!(object.get(field).is_some(), "{field}");
        }
        assert_eq!(render(&[], Format::Json, false), "[]\n");
    }
}
