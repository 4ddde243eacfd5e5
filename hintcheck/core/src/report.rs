//! The JSON report as Rust types: serde writes the report from them, and schemars makes its
//! JSON Schema (`hintcheck/report.schema.json`, [`schema_json`]) from the same types, so the two
//! cannot differ. docs/hintcheck.md describes each field.

use std::borrow::Cow;

use mpi_info::hints::{Code, JsonText, Severity};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// Bytes as the MPI gave them (a key, a value, a file name, the library version string),
/// written as a JSON string by [`JsonText`]: valid UTF-8 exactly, each byte that is not UTF-8
/// as the lone surrogate `\udcNN`, so nothing is lost (Python's `os.fsencode(json_string)`
/// gives the bytes back).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Text(pub Vec<u8>);

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // JsonText's form is valid JSON (a lone surrogate escape is valid JSON text), written
        // as it is.
        let raw = RawValue::from_string(JsonText(&self.0).to_string()).map_err(S::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl JsonSchema for Text {
    fn schema_name() -> Cow<'static, str> {
        "Text".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "Bytes as the MPI gave them: valid UTF-8 as it is, each byte that is not UTF-8 as the lone surrogate \\udcNN (NN its value in hex, 80 to ff)"
        })
    }
}

/// The whole report of one process.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "libmpi_info_hintcheck report")]
pub struct Report<'a> {
    /// The tool that wrote the report.
    #[schemars(extend("const" = "libmpi_info_hintcheck"))]
    pub tool: &'static str,
    /// The tool's version.
    pub version: &'static str,
    /// The MPI's MPI_Get_library_version string, whole.
    pub implementation: &'a Text,
    /// The MPI's name, read from that string ("MPICH", "Open MPI", ...); null when not recognised.
    pub implementation_name: Option<&'a str>,
    /// The MPI's version, read from that string ("4.0.2", "4.1.4", ...); null when not recognised.
    pub implementation_version: Option<&'a str>,
    /// The checker's targets ("mpich", "openmpi", ...; comma-separated).
    pub target: &'a str,
    /// The writing process's rank in MPI_COMM_WORLD.
    pub rank: i32,
    /// The size of MPI_COMM_WORLD.
    pub world_size: i32,
    /// False until MPI_Finalize: a job that died leaves false.
    pub finalized: bool,
    /// The calls checked by this process (the sum of the counts).
    pub checked_calls: u64,
    /// The diagnostics, counting each entry's count.
    pub findings: u64,
    /// The disagreeing keys, counting each entry's count.
    pub mismatches: u64,
    /// About the tool itself (an unknown target name, ...).
    pub notes: &'a [String],
    /// One entry per distinct call, in the order first seen.
    pub calls: Vec<&'a Entry>,
}

/// The calls the tool intercepts.
const CALLS: [&str; 14] = [
    "MPI_File_open",
    "MPI_File_set_info",
    "MPI_File_set_view",
    "MPI_Win_create",
    "MPI_Win_allocate",
    "MPI_Win_allocate_shared",
    "MPI_Win_create_dynamic",
    "MPI_Win_set_info",
    "MPI_Comm_set_info",
    "MPI_Comm_dup_with_info",
    "MPI_Comm_split_type",
    "MPI_Comm_spawn",
    "MPI_Comm_spawn_multiple",
    "MPI_Session_init",
];

/// One entry: calls equal in everything but the file name they open.
#[derive(Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// How many equal calls the entry stands for.
    #[schemars(range(min = 1))]
    pub count: u64,
    /// The MPI function.
    #[schemars(extend("enum" = CALLS))]
    pub call: String,
    /// MPI_File_open only: the first file names opened (at most 8, each once), in the order
    /// first seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<Text>")]
    pub filenames: Option<Vec<Text>>,
    /// MPI_File_open only: how many of the calls opened a file whose name is not in
    /// `filenames`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub calls_on_other_files: Option<u64>,
    /// The size of the call's communicator or group.
    #[schemars(range(min = 1))]
    pub comm_size: i32,
    /// The checker's targets for this call.
    pub target: String,
    /// The caller's pairs, in the info object's order.
    pub hints: Vec<Pair>,
    /// The checker's findings, in the order of the pairs (possibly several for one pair).
    pub diagnostics: Vec<Diagnostic>,
    /// The keys on which the processes of the call disagree.
    pub mismatches: Vec<Mismatch>,
    /// What the MPI reports after the call, key by key.
    pub effective: Vec<Effective>,
    /// What could not be checked, a failed call, a tool failure.
    pub notes: Vec<String>,
}

#[derive(Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub key: Text,
    pub value: Text,
}

/// A diagnostic code (docs/hints.md explains each).
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnosticCode {
    UnknownKey,
    BadValue,
    UnitSuffix,
    OutOfRange,
    NotReadByTarget,
    TooLongForTarget,
    Conflict,
    UnusualSpelling,
}

impl From<Code> for DiagnosticCode {
    fn from(code: Code) -> DiagnosticCode {
        match code {
            Code::UnknownKey => DiagnosticCode::UnknownKey,
            Code::BadValue => DiagnosticCode::BadValue,
            Code::UnitSuffix => DiagnosticCode::UnitSuffix,
            Code::OutOfRange => DiagnosticCode::OutOfRange,
            Code::NotReadByTarget => DiagnosticCode::NotReadByTarget,
            Code::TooLongForTarget => DiagnosticCode::TooLongForTarget,
            Code::Conflict => DiagnosticCode::Conflict,
            Code::UnusualSpelling => DiagnosticCode::UnusualSpelling,
        }
    }
}

/// How much a diagnostic matters (docs/hints.md): an error (read otherwise than meant), a
/// warning (no effect on the MPI checked for) or a note (another layer's hint, an unusual
/// spelling). Notes are not counted in `findings` nor summarised.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnosticSeverity {
    Error,
    Warning,
    Note,
}

impl From<Severity> for DiagnosticSeverity {
    fn from(severity: Severity) -> DiagnosticSeverity {
        match severity {
            Severity::Error => DiagnosticSeverity::Error,
            Severity::Warning => DiagnosticSeverity::Warning,
            Severity::Note => DiagnosticSeverity::Note,
        }
    }
}

#[derive(Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Diagnostic {
    pub key: Text,
    pub value: Text,
    pub code: DiagnosticCode,
    pub severity: DiagnosticSeverity,
    /// One line, naming the targets concerned.
    pub message: String,
    /// What to write instead, where there is one thing to write: a key or a value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub suggestion: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mismatch {
    pub key: Text,
    /// Each value passed, with the ranks that passed it.
    #[schemars(length(min = 2))]
    pub values: Vec<MismatchValue>,
}

#[derive(Clone, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MismatchValue {
    /// null: the key was not passed.
    pub value: Option<Text>,
    /// Ranks in MPI_COMM_WORLD.
    #[schemars(length(min = 1))]
    pub ranks: Vec<i32>,
}

/// What became of a key: see docs/hintcheck.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Reported as passed.
    Kept,
    /// Reported with another value.
    Changed,
    /// Not reported.
    Dropped,
    /// Reported, not passed.
    Added,
    /// Reported as passed, but the checker says this MPI reads it otherwise.
    Misread,
}

#[derive(Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effective {
    pub key: Text,
    /// The value passed; null for a key the MPI added.
    pub requested: Option<Text>,
    /// The value the MPI reports; null for a key it dropped.
    pub effective: Option<Text>,
    pub status: Status,
}

/// The report's JSON Schema (hintcheck/report.schema.json), with a final newline.
pub fn schema_json() -> String {
    let generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let schema = generator.into_root_schema_for::<Report<'static>>();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The MPI's name and version from its MPI_Get_library_version string, for the ones known.
pub fn implementation_of(version: &[u8]) -> (Option<String>, Option<String>) {
    let text = String::from_utf8_lossy(version);
    // The version: from `at`, the characters a version is made of.
    let read = |at: usize| -> Option<String> {
        let rest = text[at..].trim_start_matches([' ', '\t', ':', 'v']);
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')).unwrap_or(rest.len());
        (end > 0).then(|| rest[..end].to_string())
    };
    let after = |word: &str| text.find(word).map(|i| i + word.len());
    let (name, version) = if let Some(at) = after("CRAY MPICH version").or_else(|| after("Cray MPICH version")) {
        ("Cray MPICH", read(at))
    } else if text.starts_with("MPICH") {
        ("MPICH", after("Version:").and_then(read))
    } else if text.starts_with("MVAPICH") {
        ("MVAPICH", after("Version").and_then(read))
    } else if text.starts_with("Open MPI") {
        ("Open MPI", read("Open MPI".len()))
    } else if let Some(at) = after("Intel(R) MPI Library") {
        ("Intel MPI", read(at))
    } else {
        return (None, None);
    };
    (Some(name.to_string()), version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_lossless() {
        let t = Text(b"a\"\\\n\x1b\x07\xff\xc3\xa9".to_vec());
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, "\"a\\\"\\\\\\n\\u001b\\u0007\\udcff\u{e9}\"");
    }

    #[test]
    fn implementations() {
        let mpich = b"MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n";
        assert_eq!(implementation_of(mpich), (Some("MPICH".into()), Some("4.0.2".into())));
        let ompi = b"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022";
        assert_eq!(implementation_of(ompi), (Some("Open MPI".into()), Some("4.1.4".into())));
        let cray = b"MPI VERSION    : CRAY MPICH version 8.1.25.17 (ANL base 3.4a2)";
        assert_eq!(implementation_of(cray), (Some("Cray MPICH".into()), Some("8.1.25.17".into())));
        assert_eq!(implementation_of(b"Something else 1.0"), (None, None));
    }

    /// The committed schema is the one the types make (`make hintcheck-schema` rewrites it).
    #[test]
    fn committed_schema_is_current() {
        let committed = include_str!("../../report.schema.json");
        assert!(
            committed == schema_json(),
            "hintcheck/report.schema.json differs from the types: run make hintcheck-schema"
        );
    }
}
