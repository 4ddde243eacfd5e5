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
    /// The errors and warnings counted: the sum of the calls' `counted_findings` and the
    /// environment's.
    pub findings: u64,
    /// The disagreeing keys counted: the sum of the calls' `counted_mismatches`.
    pub mismatches: u64,
    /// About the tool itself (an unknown target name, ...).
    pub notes: &'a [String],
    /// The I/O stack found in the process, the MPI first, then the libraries above it in the
    /// order they were found (looked for again whenever the set of loaded objects changes).
    pub stack: &'a [Layer],
    /// The hint texts of the environment (ROMIO_HINTS, or ROMIO's /etc/romio-hints, PNETCDF_HINTS,
    /// MPICH_MPIIO_HINTS) that are set, checked at MPI_Init as their readers read them; on rank 0
    /// only (empty elsewhere).
    pub environment: &'a [EnvironmentEntry],
    /// One entry per distinct call, in the order first seen.
    pub calls: Vec<&'a Entry>,
}

/// A layer of the I/O stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LayerKind {
    /// The MPI implementation (its MPI-IO included).
    Mpi,
    /// PnetCDF (found by ncmpi_inq_libvers).
    Pnetcdf,
    /// HDF5 (found by H5get_libversion).
    Hdf5,
}

impl LayerKind {
    /// The name the report and the C side use.
    pub fn as_str(self) -> &'static str {
        match self {
            LayerKind::Mpi => "mpi",
            LayerKind::Pnetcdf => "pnetcdf",
            LayerKind::Hdf5 => "hdf5",
        }
    }

    /// The layer of a name the C side passes.
    pub fn from_name(name: &str) -> Option<LayerKind> {
        [LayerKind::Mpi, LayerKind::Pnetcdf, LayerKind::Hdf5].into_iter().find(|l| l.as_str() == name)
    }
}

/// One layer of the stack.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    pub layer: LayerKind,
    /// The library's name: "MPICH", "Open MPI", "PnetCDF", "HDF5"; null for an MPI not recognised.
    pub name: Option<String>,
    /// Its release as it reports it (MPI_Get_library_version, ncmpi_inq_libvers,
    /// H5get_libversion): "4.1.4", "1.12.3", "1.10.8"; null while unknown (HDF5's is asked only
    /// once the program has initialised HDF5).
    pub version: Option<String>,
    /// The checker's target for it ("openmpi@4.1.4", "pnetcdf@1.12.3"); null for a layer the
    /// hint vocabulary has no target for (HDF5, which reads no hint of its own).
    pub target: Option<String>,
    /// The shared object it was found in; null when not known.
    pub file: Option<Text>,
}

/// The environment variables whose hint texts the layers read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
pub enum Variable {
    /// Names a file of `key value` lines, read by ROMIO at the first MPI_File_open (ROMIO reads
    /// /etc/romio-hints when it is not set or names a file that cannot be opened).
    #[serde(rename = "ROMIO_HINTS")]
    Romio,
    /// `key=value;...`, merged by PnetCDF into the info of ncmpi_create and ncmpi_open.
    #[serde(rename = "PNETCDF_HINTS")]
    Pnetcdf,
    /// `pattern:key=value:...`, read by Cray MPICH's MPI-IO.
    #[serde(rename = "MPICH_MPIIO_HINTS")]
    MpichMpiio,
}

impl Variable {
    pub fn as_str(self) -> &'static str {
        match self {
            Variable::Romio => "ROMIO_HINTS",
            Variable::Pnetcdf => "PNETCDF_HINTS",
            Variable::MpichMpiio => "MPICH_MPIIO_HINTS",
        }
    }
}

/// A hint text of the environment, checked once per job (rank 0) at MPI_Init, or when the
/// layer that reads it is found.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentEntry {
    pub variable: Variable,
    /// ROMIO_HINTS: the file ROMIO reads, the one it names or /etc/romio-hints (a note says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub file: Option<Text>,
    /// PNETCDF_HINTS and MPICH_MPIIO_HINTS: the variable's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub value: Option<Text>,
    /// The layer that reads it in this process; null when none does (ROMIO_HINTS under Open
    /// MPI's OMPIO, PNETCDF_HINTS without PnetCDF, MPICH_MPIIO_HINTS outside Cray MPICH): a note
    /// says so, and it is not checked.
    pub read_by: Option<LayerKind>,
    /// The checker's targets it was checked for; null when it was not checked.
    pub target: Option<String>,
    /// What its reader makes of it, in the order of the text.
    pub findings: Vec<TextDiagnostic>,
    /// Its errors and warnings, counted in the report's `findings`.
    pub counted_findings: u64,
    /// Who reads it or not, which file ROMIO reads, a file that cannot be read.
    pub notes: Vec<String>,
}

/// The codes of findings in a hint text: the checker's and the text's own.
const TEXT_CODES: [&str; 11] = [
    "unknown-key",
    "bad-value",
    "unit-suffix",
    "out-of-range",
    "not-read-by-target",
    "too-long-for-target",
    "conflict",
    "unusual-spelling",
    "malformed-line",
    "duplicate-key",
    "truncated-input",
];

/// A finding in a hint text, at its place.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextDiagnostic {
    /// The line (from 1: the file's for ROMIO_HINTS, 1 for a variable).
    #[schemars(range(min = 1))]
    pub line: u64,
    /// The column (from 1), in bytes from the line's start.
    #[schemars(range(min = 1))]
    pub column: u64,
    /// The entry's key and value, when the finding is about an entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub key: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub value: Option<Text>,
    /// The checker's code, or the text's own: malformed-line, duplicate-key, truncated-input
    /// (docs/hints.md).
    #[schemars(extend("enum" = TEXT_CODES))]
    pub code: String,
    pub severity: DiagnosticSeverity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub suggestion: Option<String>,
}

/// Where a hint came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
pub enum Origin {
    /// The program's info object, given to this call or to the library call it was made in
    /// (`through`).
    #[serde(rename = "program")]
    Program,
    /// The file ROMIO_HINTS names (`file`, `line`, `column`).
    #[serde(rename = "ROMIO_HINTS")]
    RomioHints,
    /// PNETCDF_HINTS (`line`, `column`).
    #[serde(rename = "PNETCDF_HINTS")]
    PnetcdfHints,
    /// MPICH_MPIIO_HINTS (`line`, `column`).
    #[serde(rename = "MPICH_MPIIO_HINTS")]
    MpichMpiioHints,
    /// Added by PnetCDF (its defaults, reported by ncmpi_inq_file_info).
    #[serde(rename = "pnetcdf")]
    Pnetcdf,
    /// Added by HDF5.
    #[serde(rename = "hdf5")]
    Hdf5,
    /// Added by the MPI implementation.
    #[serde(rename = "implementation")]
    Implementation,
}

impl Origin {
    /// The source that is the environment variable `v`.
    pub fn of(v: Variable) -> Origin {
        match v {
            Variable::Romio => Origin::RomioHints,
            Variable::Pnetcdf => Origin::PnetcdfHints,
            Variable::MpichMpiio => Origin::MpichMpiioHints,
        }
    }
}

/// The source of a hint: who set the key in the object this call was given (for a requested
/// pair) or in what the layer reports (for an effective one).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub from: Origin,
    /// ROMIO_HINTS: the file ROMIO reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub file: Option<Text>,
    /// The environment's texts: the entry's line (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64", range(min = 1))]
    pub line: Option<u64>,
    /// The environment's texts: the entry's column (from 1, in bytes from the line's start).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64", range(min = 1))]
    pub column: Option<u64>,
    /// The other sources that set the key, whose value is not the one taken, each with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overridden: Vec<Overridden>,
}

impl Source {
    pub fn new(from: Origin) -> Source {
        Source { from, file: None, line: None, column: None, overridden: Vec::new() }
    }
}

/// A source whose value for a key lost to another's, or that the layer does not read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Overridden {
    pub from: Origin,
    /// ROMIO_HINTS: the file ROMIO reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Text")]
    pub file: Option<Text>,
    /// The environment's texts: the entry's line (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64", range(min = 1))]
    pub line: Option<u64>,
    /// The environment's texts: the entry's column (from 1, in bytes from the line's start).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64", range(min = 1))]
    pub column: Option<u64>,
    /// The value it set.
    pub value: Text,
    /// The implementation's rule, with the source lines that make it (at the release they
    /// were read at), or that the layer does not read this source, or that the rule cannot be
    /// told from outside.
    pub why: String,
}

/// The calls the tool intercepts (the MPI's, then the libraries').
const CALLS: [&str; 17] = [
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
    "ncmpi_create",
    "ncmpi_open",
    "H5Pset_fapl_mpio",
];

/// The libraries whose code can make a call.
const CALLERS: [Option<&str>; 3] = [Some("pnetcdf"), Some("hdf5"), None];

/// The library calls whose hints a call can come through.
const THROUGH: [Option<&str>; 4] = [Some("ncmpi_create"), Some("ncmpi_open"), Some("H5Pset_fapl_mpio"), None];

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
    /// The calls on a named file (MPI_File_open, ncmpi_create, ncmpi_open, and MPI_File_set_view
    /// and MPI_File_set_info on a file opened with MPI_File_open): the first file names (at most
    /// 8, each once), in the order first seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<Text>")]
    pub filenames: Option<Vec<Text>>,
    /// With `filenames`: how many of the calls were on a file whose name is not in `filenames`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")]
    pub calls_on_other_files: Option<u64>,
    /// The library whose code made the call (found from the call's return address); null for
    /// the program, or a library that is not in the stack.
    #[schemars(extend("enum" = CALLERS))]
    pub caller: Option<LayerKind>,
    /// The library call to which the program gave these hints, when this call was made by that
    /// library with them: "ncmpi_create" or "ncmpi_open" (this call was made inside it), or
    /// "H5Pset_fapl_mpio" (HDF5 passes the hints of the file access property list it set);
    /// null otherwise.
    #[schemars(extend("enum" = THROUGH))]
    pub through: Option<String>,
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
    /// The errors and warnings of this entry counted in the report's `findings`: each once per
    /// file (once per call for calls on no named file), and not again when it was counted where
    /// the hints entered the stack (the library call in `through`, or the environment list for a
    /// pair from an environment variable).
    pub counted_findings: u64,
    /// The disagreeing keys of this entry counted in the report's `mismatches`, the same way.
    pub counted_mismatches: u64,
    /// What could not be checked, a failed call, a tool failure.
    pub notes: Vec<String>,
}

#[derive(Clone, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub key: Text,
    pub value: Text,
    /// Who set the key in the object the call was given.
    pub source: Source,
}

/// A newtype of one of the checker's enums, written by its name (`as_str`), with the schema of
/// its names (`ALL`).
macro_rules! by_name {
    ($(#[$doc:meta])* $name:ident($inner:ty), $description:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(pub $inner);

        impl From<$inner> for $name {
            fn from(inner: $inner) -> $name {
                $name(inner)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.0.as_str())
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                let names: Vec<&str> = <$inner>::ALL.iter().map(|each| each.as_str()).collect();
                json_schema!({"description": $description, "type": "string", "enum": names})
            }
        }
    };
}

by_name!(
    /// A diagnostic code: the checker's.
    DiagnosticCode(Code),
    "A diagnostic code (docs/hints.md explains each)."
);

by_name!(
    /// How much a diagnostic matters: the checker's severity.
    DiagnosticSeverity(Severity),
    "How much a diagnostic matters (docs/hints.md): an error (read otherwise than meant), a warning (no effect on the MPI checked for) or a note (another layer's hint, an unusual spelling). Notes are not counted in `findings` nor summarised."
);

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
    /// Whose value is in effect (for a dropped key: who set it), and the sources it won over.
    pub source: Source,
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
