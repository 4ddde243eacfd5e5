//! `--report FILE`: a report of libmpi_info_hintcheck (docs/hintcheck.md) as a person reads
//! it, in text ([`text`]) or as one self-contained HTML page ([`html`]).
//!
//! The report is read with serde into the types below, which follow its JSON Schema
//! (hintcheck/report.schema.json): what the schema requires is required here (a report without
//! it is refused, naming the field), a field nobody knows yet is ignored, so a newer report is
//! shown with what is known. The parts a report may have or not (the software stack, the hint
//! variables checked at `MPI_Init`, where each hint came from, a diagnostic's severity) are
//! `Option`s, shown as `-` (text) or an empty cell (HTML) when absent; those whose form is not
//! settled yet are read as [`Lenient`], which keeps a form it does not know as its JSON text.
//!
//! Every string of the report is read as [`Text`], the bytes it stands for: the report writes
//! each byte that is not UTF-8 as the lone surrogate `\udcNN` ([`mpi_info::hints::JsonText`]),
//! which serde_json refuses to put in a `String`, so the string's JSON text is taken whole
//! ([`RawValue`]) and its escapes decoded here.

pub mod html;
pub mod text;

use mpi_info::hints::Escaped;
use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use serde_json::value::RawValue;

/// The tool whose reports these are (the report's `tool`).
pub const TOOL: &[u8] = b"libmpi_info_hintcheck";

/// The bytes a JSON string of the report stands for: valid UTF-8 as it is, each `\udcNN` as the
/// byte NN (80 to ff). A lone surrogate of any other value stands for no byte, and is read as
/// U+FFFD, as any JSON reader that does not keep lone surrogates reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text(pub Vec<u8>);

impl Text {
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        decode(raw.get())
            .map(Text)
            .ok_or_else(|| D::Error::custom(format_args!("expected a string, found {}", raw.get())))
    }
}

/// The bytes of a JSON string literal (`raw`, quotes included, as serde_json has checked it),
/// or `None` if `raw` is not a string.
pub fn decode(raw: &str) -> Option<Vec<u8>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte != b'\\' {
            out.push(byte);
            at += 1;
            continue;
        }
        let escape = *bytes.get(at + 1)?;
        at += 2;
        let simple = match escape {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let unit = hex4(bytes, at)?;
                at += 4;
                let ch = match unit {
                    0xd800..=0xdbff => match low_surrogate(bytes, at) {
                        Some(low) => {
                            at += 6;
                            char::from_u32(0x10000 + ((u32::from(unit) - 0xd800) << 10) + (u32::from(low) - 0xdc00))
                        }
                        None => None,
                    },
                    // A byte that is not UTF-8, as JsonText writes it.
                    0xdc80..=0xdcff => {
                        out.push((unit & 0xff) as u8);
                        continue;
                    }
                    _ => char::from_u32(u32::from(unit)),
                };
                let ch = ch.unwrap_or(char::REPLACEMENT_CHARACTER);
                out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
            _ => return None,
        };
        out.push(simple);
    }
    Some(out)
}

/// The four hex digits at `at`.
fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
    u16::from_str_radix(digits, 16).ok()
}

/// The low surrogate escaped at `at` (`\uDC00` to `\uDFFF`), if there is one.
fn low_surrogate(bytes: &[u8], at: usize) -> Option<u16> {
    if bytes.get(at..at + 2)? != b"\\u" {
        return None;
    }
    hex4(bytes, at + 2).filter(|unit| (0xdc00..=0xdfff).contains(unit))
}

/// A part of the report whose form may change: read as `T` where it has `T`'s form, kept as
/// its JSON text otherwise (shown as it is, escaped), so that a report of another form is still
/// shown rather than refused.
#[derive(Debug)]
pub enum Lenient<T> {
    Known(T),
    Unknown(Box<RawValue>),
}

impl<'de, T: for<'a> Deserialize<'a>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Lenient<T>, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        Ok(match serde_json::from_str(raw.get()) {
            Ok(known) => Lenient::Known(known),
            Err(_) => Lenient::Unknown(raw),
        })
    }
}

/// The JSON text of a part of a form not known here, without the blanks between its tokens
/// (the report is written indented).
pub fn compact(raw: &RawValue) -> Vec<u8> {
    let mut text = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for &byte in raw.get().as_bytes() {
        if in_string {
            in_string = escaped || byte != b'"';
            escaped = !escaped && byte == b'\\';
        } else if byte == b'"' {
            in_string = true;
        } else if byte.is_ascii_whitespace() {
            continue;
        }
        text.push(byte);
    }
    text
}

/// A field the schema requires that may be null: required all the same (serde would take a
/// missing `Option` as `None`).
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(deserializer)
}

/// The whole report of one process.
#[derive(Debug, Deserialize)]
pub struct Report {
    pub tool: Text,
    pub version: Text,
    pub implementation: Text,
    #[serde(deserialize_with = "nullable")]
    pub implementation_name: Option<Text>,
    #[serde(deserialize_with = "nullable")]
    pub implementation_version: Option<Text>,
    pub target: Text,
    pub rank: i64,
    pub world_size: i64,
    pub finalized: bool,
    pub checked_calls: u64,
    pub findings: u64,
    pub mismatches: u64,
    pub notes: Vec<Text>,
    pub calls: Vec<Entry>,
    /// The software stack the job ran on, layer by layer.
    #[serde(default)]
    pub stack: Option<Lenient<Vec<Layer>>>,
    /// The hint variables (ROMIO_HINTS, PNETCDF_HINTS, MPICH_MPIIO_HINTS) checked at MPI_Init,
    /// each with its findings.
    #[serde(default)]
    pub environment: Option<Lenient<Vec<Variable>>>,
}

/// One entry: calls equal in everything but the file name they open.
#[derive(Debug, Deserialize)]
pub struct Entry {
    pub count: u64,
    pub call: Text,
    #[serde(default)]
    pub filenames: Option<Vec<Text>>,
    #[serde(default)]
    pub calls_on_other_files: Option<u64>,
    pub comm_size: i64,
    pub target: Text,
    /// The library above the MPI that made the call, and the call of its through which the
    /// hints came (`hdf5`, `H5Pset_fapl_mpio`).
    #[serde(default)]
    pub caller: Option<Text>,
    #[serde(default)]
    pub through: Option<Text>,
    pub hints: Vec<Pair>,
    pub diagnostics: Vec<Diagnostic>,
    pub mismatches: Vec<Mismatch>,
    pub effective: Vec<Effective>,
    pub notes: Vec<Text>,
}

#[derive(Debug, Deserialize)]
pub struct Pair {
    pub key: Text,
    pub value: Text,
    #[serde(default)]
    pub source: Option<Lenient<Source>>,
}

#[derive(Debug, Deserialize)]
pub struct Diagnostic {
    pub key: Text,
    pub value: Text,
    pub code: Text,
    #[serde(default)]
    pub severity: Option<Text>,
    pub message: Text,
}

#[derive(Debug, Deserialize)]
pub struct Mismatch {
    pub key: Text,
    pub values: Vec<MismatchValue>,
}

#[derive(Debug, Deserialize)]
pub struct MismatchValue {
    /// `None`: the key was not passed.
    #[serde(deserialize_with = "nullable")]
    pub value: Option<Text>,
    pub ranks: Vec<i64>,
}

#[derive(Debug, Deserialize)]
pub struct Effective {
    pub key: Text,
    #[serde(deserialize_with = "nullable")]
    pub requested: Option<Text>,
    #[serde(deserialize_with = "nullable")]
    pub effective: Option<Text>,
    pub status: Text,
    #[serde(default)]
    pub source: Option<Lenient<Source>>,
}

/// Where a hint came from: the program, a hint variable (its file and line), a library above
/// the MPI, the MPI itself; and the values of other sources it won over.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Source {
    pub from: Option<Text>,
    pub file: Option<Text>,
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub overridden: Vec<Overridden>,
}

/// A value of another source that a hint's source won over, and the rule that says so.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Overridden {
    pub from: Option<Text>,
    pub file: Option<Text>,
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub value: Option<Text>,
    pub why: Option<Text>,
}

/// One layer of the software stack (the MPI, an I/O library, ...).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Layer {
    pub layer: Option<Text>,
    pub name: Option<Text>,
    pub version: Option<Text>,
    pub target: Option<Text>,
}

/// A hint variable checked at MPI_Init: its file (ROMIO_HINTS) or its text, who reads it, what
/// was found in it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Variable {
    pub variable: Option<Text>,
    pub file: Option<Text>,
    pub value: Option<Text>,
    pub read_by: Option<Text>,
    pub target: Option<Text>,
    pub findings: Vec<Finding>,
    pub notes: Vec<Text>,
}

/// A finding in a hint text, at its line and column.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Finding {
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub key: Option<Text>,
    pub value: Option<Text>,
    pub code: Option<Text>,
    pub severity: Option<Text>,
    pub message: Option<Text>,
    pub suggestion: Option<Text>,
}

/// Reads a report from the bytes of a file: the message completes "FILE: ...".
pub fn parse(bytes: &[u8]) -> Result<Report, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| format!("not JSON: not UTF-8 text (byte {} is not UTF-8)", error.valid_up_to() + 1))?;
    let report: Report = serde_json::from_str(text).map_err(|error| match error.classify() {
        serde_json::error::Category::Data => format!("not a hintcheck report: {error}"),
        _ => format!("not JSON: {error}"),
    })?;
    if report.tool.bytes() != TOOL {
        return Err(format!(
            "not a hintcheck report: \"tool\" is '{}', not '{}'",
            Escaped(report.tool.bytes()),
            Escaped(TOOL)
        ));
    }
    Ok(report)
}

/// A line of a call's table: one key, what was asked and what the MPI reports, where the hint
/// came from, and the checker's findings for it.
pub struct Row<'a> {
    pub key: &'a [u8],
    pub requested: Option<&'a [u8]>,
    pub effective: Option<&'a [u8]>,
    pub status: Option<&'a [u8]>,
    pub source: Option<&'a Lenient<Source>>,
    pub findings: Vec<&'a Diagnostic>,
}

/// The rows of an entry, one per key: what the MPI reports (`effective`: the keys passed, then
/// those it added), then any pair it has no line for (a call with nothing reported), then any
/// diagnostic's key that is in neither.
pub fn rows(entry: &Entry) -> Vec<Row<'_>> {
    let source_of =
        |key: &[u8]| entry.hints.iter().find(|pair| pair.key.bytes() == key).and_then(|p| p.source.as_ref());
    let mut rows: Vec<Row<'_>> = entry
        .effective
        .iter()
        .map(|e| Row {
            key: e.key.bytes(),
            requested: e.requested.as_ref().map(Text::bytes),
            effective: e.effective.as_ref().map(Text::bytes),
            status: Some(e.status.bytes()),
            source: e.source.as_ref().or_else(|| source_of(e.key.bytes())),
            findings: Vec::new(),
        })
        .collect();
    for pair in &entry.hints {
        if !rows.iter().any(|row| row.key == pair.key.bytes()) {
            rows.push(Row {
                key: pair.key.bytes(),
                requested: Some(pair.value.bytes()),
                effective: None,
                status: None,
                source: pair.source.as_ref(),
                findings: Vec::new(),
            });
        }
    }
    for diagnostic in &entry.diagnostics {
        match rows.iter_mut().find(|row| row.key == diagnostic.key.bytes()) {
            Some(row) => row.findings.push(diagnostic),
            None => rows.push(Row {
                key: diagnostic.key.bytes(),
                requested: Some(diagnostic.value.bytes()),
                effective: None,
                status: None,
                source: None,
                findings: vec![diagnostic],
            }),
        }
    }
    rows
}

/// Ranks as runs: `0-3,8` (sorted, each once).
pub fn ranks(ranks: &[i64]) -> String {
    let mut sorted = ranks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<String> = Vec::new();
    let mut at = 0;
    while at < sorted.len() {
        let mut end = at;
        while end + 1 < sorted.len() && sorted[end + 1] == sorted[end] + 1 {
            end += 1;
        }
        runs.push(if end == at { sorted[at].to_string() } else { format!("{}-{}", sorted[at], sorted[end]) });
        at = end + 1;
    }
    runs.join(",")
}

/// A place a text was read at: `FROM FILE:LINE:COLUMN`, with what is given.
fn place(from: Option<&Text>, file: Option<&Text>, line: Option<u64>, column: Option<u64>) -> Vec<u8> {
    let mut words: Vec<u8> = Vec::new();
    for piece in [from, file].into_iter().flatten() {
        if !words.is_empty() {
            words.push(b' ');
        }
        words.extend_from_slice(piece.bytes());
    }
    for number in [line, column].into_iter().flatten() {
        words.extend_from_slice(format!(":{number}").as_bytes());
    }
    words
}

/// Where a hint came from, in a few words: where it was read (`ROMIO_HINTS /home/me/hints:3`),
/// then each value of another source it won over (`; over program 2`); a source of a form not
/// known here, as its JSON text.
pub fn source_words(source: &Lenient<Source>) -> Vec<u8> {
    let source = match source {
        Lenient::Known(source) => source,
        Lenient::Unknown(raw) => return compact(raw),
    };
    let mut words = place(source.from.as_ref(), source.file.as_ref(), source.line, source.column);
    for lost in &source.overridden {
        words.extend_from_slice(b"; over ");
        words.extend(place(lost.from.as_ref(), lost.file.as_ref(), lost.line, lost.column));
        if let Some(value) = &lost.value {
            words.extend_from_slice(b" = ");
            words.extend_from_slice(value.bytes());
        }
    }
    words
}

/// Why a source won over each other one: `KEY: FROM PLACE = VALUE lost: WHY`, one per value.
pub fn overridden_lines(key: &[u8], source: &Lenient<Source>) -> Vec<Vec<u8>> {
    let Lenient::Known(source) = source else { return Vec::new() };
    source
        .overridden
        .iter()
        .map(|lost| {
            let mut line = key.to_vec();
            line.extend_from_slice(b": ");
            line.extend(place(lost.from.as_ref(), lost.file.as_ref(), lost.line, lost.column));
            if let Some(value) = &lost.value {
                line.extend_from_slice(b" = ");
                line.extend_from_slice(value.bytes());
            }
            line.extend_from_slice(b" lost");
            if let Some(why) = &lost.why {
                line.extend_from_slice(b": ");
                line.extend_from_slice(why.bytes());
            }
            line
        })
        .collect()
}

/// A hint variable in a few words: `ROMIO_HINTS /home/me/hints`, who reads it and for which
/// target (`read by mpi, for mpich@4.0.2`).
pub fn variable_words(variable: &Variable) -> Vec<u8> {
    let mut words = place(variable.variable.as_ref(), variable.file.as_ref(), None, None);
    if let Some(reader) = &variable.read_by {
        words.extend_from_slice(b" (read by ");
        words.extend_from_slice(reader.bytes());
        if let Some(target) = &variable.target {
            words.extend_from_slice(b", for ");
            words.extend_from_slice(target.bytes());
        }
        words.push(b')');
    }
    words
}

/// The place of a finding in a hint variable: `VARIABLE FILE:LINE:COLUMN`.
pub fn place_words(variable: &Variable, finding: &Finding) -> Vec<u8> {
    place(variable.variable.as_ref(), variable.file.as_ref(), finding.line, finding.column)
}
/// The diagnostics of the whole report by severity (errors, warnings, notes), each once: each
/// distinct call's and each hint variable's (the report's own `findings` counts them as the
/// tool does, per file or per call); `None` if no diagnostic has a severity (an older report).
pub fn severities(report: &Report) -> Option<[u64; 3]> {
    let mut counts = [0u64; 3];
    let mut any = false;
    let calls = report.calls.iter().flat_map(|entry| entry.diagnostics.iter().map(|d| d.severity.as_ref()));
    let variables = match &report.environment {
        Some(Lenient::Known(variables)) => variables.as_slice(),
        _ => &[],
    };
    let environment = variables.iter().flat_map(|v| v.findings.iter().map(|f| f.severity.as_ref()));
    for severity in calls.chain(environment) {
        let index = match severity.map(Text::bytes) {
            Some(b"error") => 0,
            Some(b"warning") => 1,
            Some(b"note") => 2,
            _ => continue,
        };
        any = true;
        counts[index] += 1;
    }
    any.then_some(counts)
}

/// What the report holds, by severity, each once: " (found: 2 errors, 1 warning, 0 notes, each
/// once)"; nothing for a report whose diagnostics have no severity.
pub fn found(report: &Report) -> String {
    match severities(report) {
        Some([errors, warnings, notes]) => format!(
            " (found: {}, {}, {}, each once)",
            counted(errors, "error", "errors"),
            counted(warnings, "warning", "warnings"),
            counted(notes, "note", "notes")
        ),
        None => String::new(),
    }
}

/// "1 call", "2 calls": a count and its noun, plural unless it is 1.
pub fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_pairs_and_bytes() {
        assert_eq!(decode(r#""a\"\\\/\b\f\n\r\t""#).unwrap(), b"a\"\\/\x08\x0c\n\r\t");
        assert_eq!(decode(r#""\u001b\u0007\u00e9""#).unwrap(), "\x1b\x07é".as_bytes());
        // A pair is one character; \udcNN alone is the byte NN.
        assert_eq!(decode(r#""\ud83d\ude00""#).unwrap(), "😀".as_bytes());
        assert_eq!(decode(r#""k\udcff\udcfe""#).unwrap(), b"k\xff\xfe");
        assert_eq!(decode(r#""\ud83d\udc80""#).unwrap(), "\u{1f480}".as_bytes());
        // Lone surrogates that stand for no byte.
        assert_eq!(decode(r#""\ud800x""#).unwrap(), "\u{fffd}x".as_bytes());
        assert_eq!(decode(r#""\udc7f""#).unwrap(), "\u{fffd}".as_bytes());
        assert_eq!(decode("\"é\"").unwrap(), "é".as_bytes());
        assert_eq!(decode("12"), None);
        assert_eq!(decode("null"), None);
    }

    #[test]
    fn text_round_trips_json_text() {
        let bytes: &[u8] = b"h\x1b[31m\x07\n\xff\xc3\"'<>&.txt\xed\xa0\x80";
        let json = mpi_info::hints::JsonText(bytes).to_string();
        let text: Text = serde_json::from_str(&json).unwrap();
        assert_eq!(text.bytes(), bytes);
    }

    #[test]
    fn rank_runs() {
        assert_eq!(ranks(&[8, 0, 1, 2, 3]), "0-3,8");
        assert_eq!(ranks(&[1, 3]), "1,3");
        assert_eq!(ranks(&[5]), "5");
        assert_eq!(ranks(&[2, 2, 1]), "1-2");
        assert_eq!(ranks(&[]), "");
    }

    fn minimal() -> serde_json::Value {
        serde_json::json!({
            "tool": "libmpi_info_hintcheck", "version": "0.1.0", "implementation": "MPICH Version:\t4.0.2",
            "implementation_name": "MPICH", "implementation_version": "4.0.2", "target": "mpich",
            "rank": 0, "world_size": 2, "finalized": true, "checked_calls": 0, "findings": 0,
            "mismatches": 0, "notes": [], "calls": []
        })
    }

    #[test]
    fn required_fields_are_required() {
        assert!(parse(minimal().to_string().as_bytes()).is_ok());
        for field in ["calls", "implementation_name", "finalized"] {
            let mut report = minimal();
            report.as_object_mut().unwrap().remove(field);
            let error = parse(report.to_string().as_bytes()).unwrap_err();
            assert!(error.starts_with("not a hintcheck report: missing field `") && error.contains(field), "{error}");
        }
        let mut report = minimal();
        report["tool"] = "something".into();
        assert_eq!(
            parse(report.to_string().as_bytes()).unwrap_err(),
            "not a hintcheck report: \"tool\" is 'something', not 'libmpi_info_hintcheck'"
        );
        assert!(parse(b"{").unwrap_err().starts_with("not JSON: "));
        assert!(parse(b"\xff").unwrap_err().starts_with("not JSON: not UTF-8"));
    }

    #[test]
    fn newer_fields_are_read_or_kept() {
        let mut report = minimal();
        report["stack"] =
            serde_json::json!([{"layer": "mpi", "name": "MPICH", "version": "4.0.2", "target": "mpich@4.0.2"}]);
        report["environment"] = serde_json::json!({"a form": "not known here"});
        report["something_new"] = serde_json::json!(1);
        let parsed = parse(report.to_string().as_bytes()).unwrap();
        assert!(matches!(&parsed.stack, Some(Lenient::Known(layers)) if layers.len() == 1));
        assert!(matches!(&parsed.environment, Some(Lenient::Unknown(_))));
    }

    #[test]
    fn sources_in_words() {
        let source: Lenient<Source> =
            serde_json::from_str(r#"{"from": "ROMIO_HINTS", "file": "/h", "line": 3}"#).unwrap();
        assert_eq!(source_words(&source), b"ROMIO_HINTS /h:3");
        let source: Lenient<Source> = serde_json::from_str(
            r#"{"from": "program", "overridden": [{"from": "ROMIO_HINTS", "file": "/h", "line": 1, "value": "2", "why": "ROMIO skips it"}]}"#,
        )
        .unwrap();
        assert_eq!(source_words(&source), b"program; over ROMIO_HINTS /h:1 = 2");
        assert_eq!(
            overridden_lines(b"cb_nodes", &source),
            [b"cb_nodes: ROMIO_HINTS /h:1 = 2 lost: ROMIO skips it".to_vec()]
        );
        let source: Lenient<Source> = serde_json::from_str(r#""program""#).unwrap();
        assert_eq!(source_words(&source), b"\"program\"");
        let source: Lenient<Source> = serde_json::from_str("[1, {\"a b\": \"c \\\" d\"},\n 2]").unwrap();
        assert_eq!(source_words(&source), b"[1,{\"a b\":\"c \\\" d\"},2]");
    }
}
