//! The checking and report core of `libmpi_info_hintcheck` (docs/hintcheck.md).
//!
//! `hintcheck/hintcheck.c`, built with an MPI's own compiler wrapper, intercepts the MPI calls
//! that take an info argument and does everything that talks to the MPI (reading the caller's
//! hints and what the MPI reports back through `PMPI_`, the agreement collective). It hands the
//! text to the plain C functions below (`mpi_info_hintcheck_*`, not exported from the shared
//! library: its version script keeps only the intercepted `MPI_` names), which check the hints
//! with [`mpi_info::hints`], compare what was asked with what the MPI reports, keep the report
//! of this process, write it as JSON ([`report`], [`file`]) and print what must be printed.
//!
//! Every entry point catches panics and never fails the caller: a failure of the checker is
//! noted in the report and otherwise ignored. The report is behind one mutex; a call under
//! construction belongs to the thread that made it. The report file is rewritten by the
//! thread whose call needs it written at once, and otherwise by a flusher thread at most once a
//! second ([`flusher`]); the report's mutex is held while the report is turned into text, never
//! while a file is written. In a child made by `fork` every entry point does nothing.

#![deny(unsafe_op_in_unsafe_fn)]

mod file;
mod report;
mod sources;

use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_int, c_longlong, CStr, OsString};
use std::fmt::Write as _;
use std::io::Write as _;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use mpi_info::hints::{check_object, check_text, Code, Escaped, Finding, Severity, Targets, Vocabulary};
use mpi_info::Error;

pub use report::schema_json;
use report::{
    Diagnostic, Effective, Entry, EnvironmentEntry, Layer, LayerKind, MismatchValue, Origin, Pair, Status, Text,
    TextDiagnostic, Variable,
};
use sources::{Ctx, Rules};

/// The file names an entry lists; the calls on other files are only counted.
const FILENAMES_KEPT: usize = 8;

/// The library calls that take the program's info (intercepted where the library is loaded).
const LIBRARY_CALLS: [&str; 3] = ["ncmpi_create", "ncmpi_open", "H5Pset_fapl_mpio"];

/// The library call whose info a call's hints came through, with the pairs the program gave it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Through {
    call: String,
    pairs: Vec<u8>,
}

/// One intercepted call while it is being built (owned by the intercepting thread). Everything
/// the report says of a call follows from its other fields (the checker is deterministic), so
/// calls whose other fields but the file name are equal are one entry with a count, without
/// checking them again.
#[derive(Clone)]
pub struct Call {
    call: String,
    filename: Option<Vec<u8>>,
    comm_size: i32,
    /// The library whose code made the call.
    caller: Option<LayerKind>,
    /// The library call the program gave these hints to, when a library made this call with
    /// them (set by `mpi_info_hintcheck_through`, or found for HDF5's calls).
    through: Option<Through>,
    /// The caller's pairs, `key\0value\0`... in the info object's order.
    requested: Vec<u8>,
    /// What the MPI reports after the call, in the same form; `None` when it reports nothing.
    reported: Option<Vec<u8>>,
    mismatches: Vec<report::Mismatch>,
    notes: Vec<String>,
    /// The checker's findings, once made: by `mpi_info_hintcheck_mismatch` for a call whose
    /// processes disagree (its entry is written before the call), else when the call ends.
    findings: Option<Result<Vec<Finding>, Error>>,
    /// The id of the entry written before the call returned (processes that disagree).
    pending: Option<u64>,
}

impl Call {
    /// What makes two calls one entry: every field but the file name, `findings` (which follows
    /// from the others) and `pending`.
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (&str, i32, Option<LayerKind>, &Option<Through>, &[u8], &Option<Vec<u8>>, &[report::Mismatch], &[String]) {
        (
            &self.call,
            self.comm_size,
            self.caller,
            &self.through,
            &self.requested,
            &self.reported,
            &self.mismatches,
            &self.notes,
        )
    }
}

impl PartialEq for Call {
    fn eq(&self, other: &Call) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Call {}

impl std::hash::Hash for Call {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}

/// One entry of the report and what the summary needs of it.
struct Kept {
    entry: Entry,
    /// The ids ([`finding_id`]) of the errors and warnings of one call that are counted here
    /// (not where the hints entered the stack), and of its disagreeing keys.
    ids: Vec<u64>,
    mismatch_ids: Vec<u64>,
    /// The ids this entry counted at least once: the summary shows their lines.
    counted_ids: HashSet<u64>,
    /// Lines for the summary, escaped, with the id of their finding or disagreement:
    /// "MPI_File_open: key=value: code: message".
    lines: Vec<(u64, String)>,
}

/// The checker's targets: the list as the report names it, and parsed (`Err`: the vocabulary
/// could not be loaded).
#[derive(Clone)]
struct TargetList {
    names: String,
    targets: Result<Targets, Error>,
}

struct State {
    implementation: Text,
    implementation_name: Option<String>,
    implementation_version: Option<String>,
    /// The checker's targets: the running MPI's, or MPI_INFO_HINTCHECK_TARGETS.
    target: TargetList,
    /// The same for files (Open MPI with its ROMIO component adds mpich).
    file_target: TargetList,
    /// The same for ROMIO_HINTS (ROMIO's: mpich@3.2.1 in Open MPI 4.1's ROMIO component).
    romio_target: TargetList,
    /// The file targets with PnetCDF's, for the calls PnetCDF takes hints in or makes; `None`
    /// until PnetCDF is found.
    pnetcdf_target: Option<TargetList>,
    /// The I/O stack found: the MPI first.
    stack: Vec<Layer>,
    /// The environment's hint texts checked (rank 0's report only lists them).
    environment: Vec<EnvironmentEntry>,
    /// The ids of the environment's errors and warnings, by variable: a call's finding on a pair
    /// from that variable with one of these ids is counted in the environment, not again.
    env_ids: HashSet<(Variable, u64)>,
    /// The findings and disagreements counted on each file: (file name's hash, id).
    counted: HashSet<(u64, u64)>,
    /// The pairs given to H5Pset_fapl_mpio (the most recent last, at most FAPL_SETS): HDF5's
    /// calls with one of these have their hints through it.
    fapl_sets: Vec<Vec<u8>>,
    /// The disagreements printed (a hash of the call and its disagreeing keys): each once.
    printed: HashSet<u64>,
    world_rank: i32,
    world_size: i32,
    verbose: bool,
    entries: Vec<Kept>,
    /// Each entry's call, to merge equal ones.
    index: Index,
    /// Entries of calls whose processes disagree, written before the call returned and until it
    /// does: (id, entry).
    pending: Vec<(u64, Entry)>,
    next_pending: u64,
    notes: Vec<String>,
    calls: u64,
    finalized: bool,
    /// Counts every change of the report (the flusher writes it when it differs from the
    /// generation last written).
    generation: u64,
}

static REPORT: Mutex<Option<State>> = Mutex::new(None);
/// The environment's texts and the layers' rules, fixed at `MPI_Init`.
static RULES: OnceLock<Rules> = OnceLock::new();
/// How many pair sets given to H5Pset_fapl_mpio are remembered.
const FAPL_SETS: usize = 64;

/// Set in a child made by `fork` (a `pthread_atfork` handler): the child has none of the
/// parent's threads, and its copies of the locks may be held, so nothing is done there.
static FORKED: AtomicBool = AtomicBool::new(false);

extern "C" fn in_child() {
    FORKED.store(true, Ordering::Relaxed);
}

/// FNV-1a over 8-byte words for the index of calls: the calls are the process's own, so no
/// hash flooding to fear, and SipHash over a call's kilobyte of text costs more than the rest
/// of a repeated call.
#[derive(Default)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0 ^ 0xcbf2_9ce4_8422_2325;
        let mut chunks = bytes.chunks_exact(8);
        for w in &mut chunks {
            h = (h ^ u64::from_le_bytes(w.try_into().unwrap_or([0; 8]))).wrapping_mul(0x100_0000_01b3).rotate_left(29);
        }
        for &b in chunks.remainder() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

type Index = HashMap<Box<Call>, usize, std::hash::BuildHasherDefault<WordHasher>>;

fn with_report<R>(f: impl FnOnce(&mut State) -> R) -> Option<R> {
    if FORKED.load(Ordering::Relaxed) {
        return None;
    }
    let mut guard = REPORT.lock().unwrap_or_else(|e| e.into_inner());
    guard.as_mut().map(f)
}

/// Writes `message` (whole lines) on standard error at once.
fn print(message: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(message.as_bytes());
    let _ = err.flush();
}

// ---- the report file ----

/// Where the report goes and what became of it.
struct Sink {
    /// The file, if this process writes one.
    path: Option<PathBuf>,
    /// The file could not be written (said once on standard error): it is no longer tried.
    given_up: bool,
    world_rank: i32,
}

static SINK: Mutex<Sink> = Mutex::new(Sink { path: None, given_up: false, world_rank: 0 });
/// The generation of the report last written (or tried).
static WRITTEN: AtomicU64 = AtomicU64::new(0);

impl State {
    /// The report as JSON text, with its generation; `None` if it goes to no file.
    fn snapshot(&self) -> Option<(u64, Vec<u8>)> {
        if WRITTEN.load(Ordering::Acquire) >= self.generation {
            return None;
        }
        let (findings, mismatches) = self.totals();
        let pending = self.pending.iter().map(|(_, e)| e);
        let out = report::Report {
            tool: "libmpi_info_hintcheck",
            version: env!("CARGO_PKG_VERSION"),
            implementation: &self.implementation,
            implementation_name: self.implementation_name.as_deref(),
            implementation_version: self.implementation_version.as_deref(),
            target: &self.target.names,
            rank: self.world_rank,
            world_size: self.world_size,
            finalized: self.finalized,
            checked_calls: self.calls + self.pending.len() as u64,
            findings,
            mismatches,
            notes: &self.notes,
            stack: &self.stack,
            environment: if self.world_rank == 0 { &self.environment } else { &[] },
            calls: self.entries.iter().map(|k| &k.entry).chain(pending).collect(),
        };
        let mut text = serde_json::to_vec_pretty(&out).ok()?;
        text.push(b'\n');
        Some((self.generation, text))
    }

    /// The errors and warnings counted (the calls' and, on rank 0, the environment's) and the
    /// disagreeing keys counted, the pending entries' included.
    fn totals(&self) -> (u64, u64) {
        let entries = self.entries.iter().map(|k| &k.entry).chain(self.pending.iter().map(|(_, e)| e));
        let (mut f, mut m) = (0, 0);
        for e in entries {
            f += e.counted_findings;
            m += e.counted_mismatches;
        }
        if self.world_rank == 0 {
            f += self.environment.iter().map(|e| e.counted_findings).sum::<u64>();
        }
        (f, m)
    }

    /// Counts the call of entry `i` on `file` (none: a call on no named file): its errors and
    /// warnings and disagreeing keys, each once per file.
    fn count(&mut self, i: usize, file: Option<&[u8]>) {
        let k = &mut self.entries[i];
        let file = file.map(hash_bytes);
        let mut counted = |id: u64| {
            let new = file.map_or(true, |h| self.counted.insert((h, id)));
            if new {
                k.counted_ids.insert(id);
            }
            new
        };
        let f = k.ids.iter().filter(|&&id| counted(id)).count();
        let m = k.mismatch_ids.iter().filter(|&&id| counted(id)).count();
        k.entry.counted_findings += f as u64;
        k.entry.counted_mismatches += m as u64;
    }

    fn changed(&mut self) {
        self.generation += 1;
    }
}

/// Writes a snapshot to the report file, unless a later one was written already. On failure,
/// says so once on standard error and gives the file up.
fn store(snapshot: Option<(u64, Vec<u8>)>) {
    let Some((generation, text)) = snapshot else { return };
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    if sink.given_up || WRITTEN.load(Ordering::Acquire) >= generation {
        return;
    }
    let Some(path) = sink.path.clone() else { return };
    WRITTEN.store(generation, Ordering::Release);
    let why = match file::replace(&path, &text) {
        Ok(()) => return,
        Err(file::WriteError::NotRegular(what)) => {
            format!("{what} is there, and the report needs a regular file (or nothing) at its path")
        }
        Err(file::WriteError::Io(e)) => e.to_string(),
    };
    sink.given_up = true;
    print(&format!(
        "mpi-info hintcheck: rank {}: cannot write the report {}: {why}; no report is written\n",
        sink.world_rank,
        Escaped(path.as_os_str().as_bytes())
    ));
}

/// Writes the report now, if it changed since last written.
fn write_now() {
    if let Some(snapshot) = with_report(|r| r.snapshot()) {
        store(snapshot);
    }
}

/// The flusher: a thread that wakes each second and writes the report if it changed, so that
/// the file is never more than a second behind while counts change, and a call that only adds
/// to a count costs no write. Made at `MPI_Init` when there is a file; stopped (and joined) at
/// `MPI_Finalize` before the last write. Its signals are blocked: they go to the program's own
/// threads.
mod flusher {
    use super::*;

    pub(crate) static STOP: Mutex<bool> = Mutex::new(false);
    pub(crate) static WAKE: Condvar = Condvar::new();
    static THREAD: Mutex<Option<std::thread::JoinHandle<()>>> = Mutex::new(None);

    pub(crate) fn start() {
        let mut thread = THREAD.lock().unwrap_or_else(|e| e.into_inner());
        if thread.is_some() {
            return;
        }
        // SAFETY: sigset_t is plain data, filled by sigfillset; the old mask is restored after.
        let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid sigset_t pointers; the new thread inherits the mask in force here.
        unsafe {
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        }
        *thread = std::thread::Builder::new().name("hintcheck-flush".into()).stack_size(256 * 1024).spawn(run).ok();
        // SAFETY: restores this thread's mask.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
    }

    fn run() {
        let mut stop = STOP.lock().unwrap_or_else(|e| e.into_inner());
        while !*stop {
            stop = WAKE.wait_timeout(stop, Duration::from_secs(1)).unwrap_or_else(|e| e.into_inner()).0;
            if *stop {
                break;
            }
            drop(stop);
            let _ = catch_unwind(write_now);
            stop = STOP.lock().unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stops the flusher and waits for it: nothing of it runs after this returns.
    pub(crate) fn stop() {
        *STOP.lock().unwrap_or_else(|e| e.into_inner()) = true;
        WAKE.notify_all();
        let handle = THREAD.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

// ---- the C functions ----

/// A C string (NULL: none) as bytes.
unsafe fn bytes<'a>(ptr: *const c_char) -> Option<&'a [u8]> {
    if ptr.is_null() {
        None
    } else {
        // SAFETY: the C side passes NUL-terminated strings it owns for the whole call.
        Some(unsafe { CStr::from_ptr(ptr) }.to_bytes())
    }
}

/// A C string (NULL: none), lossily as UTF-8 (the tool's own text: call names, targets, notes).
unsafe fn text(ptr: *const c_char) -> Option<String> {
    // SAFETY: as for `bytes`.
    unsafe { bytes(ptr) }.map(|b| String::from_utf8_lossy(b).into_owned())
}

/// The release in an implementation's version (`4.0.2` of `4.0.2`, `4.1.4rc1`, `5.0.0a1`): its
/// leading numbers and dots, at least two numbers.
fn release_of(version: &str) -> Option<String> {
    let numbers = version.find(|c: char| !(c.is_ascii_digit() || c == '.')).map_or(version, |end| &version[..end]);
    let numbers = numbers.trim_end_matches('.');
    (numbers.split('.').count() >= 2 && numbers.split('.').all(|n| !n.is_empty())).then(|| numbers.to_string())
}

/// The checker's targets from MPI_INFO_HINTCHECK_TARGETS: each name is given to
/// `Targets::parse` on its own; one it refuses is noted (escaped) and left out, the others kept.
/// `None` when none is kept.
fn targets_from(
    given: &str,
    vocabulary: Result<&'static Vocabulary, Error>,
    notes: &mut Vec<String>,
) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    for name in given.split(',') {
        let name = name.trim_matches(|c| c == ' ' || c == '\t');
        if name.is_empty() {
            continue;
        }
        match vocabulary.and_then(|v| Targets::parse(v, Some(name)).map_err(Error::from)) {
            Ok(_) => {
                if !kept.contains(&name) {
                    kept.push(name);
                }
            }
            Err(_) => notes.push(format!(
                "MPI_INFO_HINTCHECK_TARGETS: '{}' is not a target the checker knows: it is ignored",
                Escaped(name.as_bytes())
            )),
        }
    }
    (!kept.is_empty()).then(|| kept.join(","))
}

/// Sets up this process's report: the MPI's version string, the checker's target name(s) for
/// it, the rank and size of `MPI_COMM_WORLD`. Reads `MPI_INFO_HINTCHECK` (the JSON file: written
/// by rank 0, or by every rank if the name holds `%r`, replaced by the rank),
/// `MPI_INFO_HINTCHECK_TARGETS` and `MPI_INFO_HINTCHECK_VERBOSE`, writes the report a first time
/// and starts the flusher. Returns 0, or -1 if the report could not be set up.
///
/// # Safety
/// `version` and `target` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_init(
    version: *const c_char,
    target: *const c_char,
    world_rank: c_int,
    world_size: c_int,
) -> c_int {
    if FORKED.load(Ordering::Relaxed) {
        return -1;
    }
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `version` and `target` are NULL or NUL-terminated (this function's contract).
        let (version, name) = unsafe { (bytes(version), text(target)) };
        set_up(version.unwrap_or_default(), name, world_rank, world_size, sources::read_environment());
    }));
    if r.is_ok() {
        0
    } else {
        -1
    }
}

/// `mpi_info_hintcheck_init`'s work, with the environment's hint texts `texts`.
fn set_up(version: &[u8], name: Option<String>, world_rank: i32, world_size: i32, texts: Vec<sources::EnvText>) {
    let end = version.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let implementation = Text(version[..end].to_vec());
    let (implementation_name, implementation_version) = report::implementation_of(&implementation.0);
    let name = name.unwrap_or_else(|| "mpi".to_string());
    // The running release, so that the checker reads hints as it does (mpich@4.0.2).
    let release = implementation_version.as_deref().and_then(release_of);
    let running = match &release {
        Some(release) if name != "mpi" => format!("{name}@{release}"),
        _ => name.clone(),
    };
    let mut notes = Vec::new();
    let vocabulary = Vocabulary::builtin();
    let list = |names: String, notes: &mut Vec<String>| {
        let targets = vocabulary.and_then(|v| Targets::parse(v, Some(&names)).map_err(Error::from));
        if let Ok(targets) = &targets {
            notes.extend(targets.notes.iter().cloned());
        }
        TargetList { targets, names }
    };
    // MPI_INFO_HINTCHECK_TARGETS: the checker's targets instead of the running MPI's (for
    // hints that must also work elsewhere: "mpich,openmpi").
    let target = match std::env::var_os("MPI_INFO_HINTCHECK_TARGETS").filter(|t| !t.is_empty()) {
        Some(t) => {
            let given = String::from_utf8_lossy(t.as_bytes()).into_owned();
            match targets_from(&given, vocabulary, &mut notes) {
                Some(names) => list(names, &mut notes),
                None => {
                    notes.push(format!("MPI_INFO_HINTCHECK_TARGETS names no target the checker knows: {running} used"));
                    list(running.clone(), &mut notes)
                }
            }
        }
        None => list(running.clone(), &mut notes),
    };
    // Open MPI opens files with OMPIO unless its io framework is told to use its ROMIO
    // component, which reads ROMIO's hints (listed under mpich in the vocabulary). Its
    // MPI_File_get_info returns the caller's hints either way, so the environment decides.
    let romio = std::env::var("OMPI_MCA_io").map(|v| v.contains("romio")).unwrap_or(false);
    let has_mpich = matches!((vocabulary, &target.targets), (Ok(v), Ok(t)) if t.contains(v, "mpich"));
    // Its ROMIO components are MPICH's ROMIO of 3.2.1 (romio321, Open MPI 4.1) and 3.4.1
    // (romio341, 5.0): read as the nearest MPICH release known.
    let romio_release = if release.as_deref().is_some_and(|r| r.starts_with("4.")) { "3.2.1" } else { "3.4.1" };
    let file_target = if name == "openmpi" && romio && !has_mpich {
        list(format!("{},mpich@{romio_release}", target.names), &mut notes)
    } else {
        target.clone()
    };
    // ROMIO_HINTS is read by ROMIO: the MPI's own (MPICH), or Open MPI's ROMIO component.
    let user_targets = std::env::var_os("MPI_INFO_HINTCHECK_TARGETS").is_some_and(|t| !t.is_empty());
    let romio_target = if name == "openmpi" && !user_targets {
        list(format!("mpich@{romio_release}"), &mut Vec::new())
    } else {
        target.clone()
    };
    let _ = RULES.set(Rules::new(
        texts,
        implementation_name.as_deref(),
        implementation_version.as_deref(),
        name == "openmpi" && romio,
    ));
    let stack = vec![Layer {
        layer: LayerKind::Mpi,
        name: implementation_name.clone(),
        version: implementation_version.clone(),
        target: Some(running.clone()),
        file: None,
    }];
    let path = std::env::var_os("MPI_INFO_HINTCHECK").filter(|p| !p.is_empty()).and_then(|p| {
        let p = p.into_vec();
        if p.windows(2).any(|w| w == b"%r") {
            let rank = world_rank.to_string();
            let mut out = Vec::with_capacity(p.len() + rank.len());
            let mut rest = &p[..];
            while let Some(i) = rest.windows(2).position(|w| w == b"%r") {
                out.extend_from_slice(&rest[..i]);
                out.extend_from_slice(rank.as_bytes());
                rest = &rest[i + 2..];
            }
            out.extend_from_slice(rest);
            Some(PathBuf::from(OsString::from_vec(out)))
        } else if world_rank == 0 {
            Some(PathBuf::from(OsString::from_vec(p)))
        } else {
            None
        }
    });
    let verbose = std::env::var("MPI_INFO_HINTCHECK_VERBOSE").map(|v| !v.is_empty() && v != "0").unwrap_or(false);
    if let Err(e) = vocabulary {
        notes.push(format!("the checker's vocabulary could not be loaded: {e}"));
    }
    let mut state = State {
        implementation,
        implementation_name,
        implementation_version,
        target,
        file_target,
        romio_target,
        pnetcdf_target: None,
        stack,
        environment: Vec::new(),
        env_ids: HashSet::new(),
        counted: HashSet::new(),
        fapl_sets: Vec::new(),
        printed: HashSet::new(),
        world_rank,
        world_size,
        verbose,
        entries: Vec::new(),
        index: Index::default(),
        pending: Vec::new(),
        next_pending: 0,
        notes,
        calls: 0,
        finalized: false,
        generation: 1,
    };
    state.check_environment();
    let writes = path.is_some();
    {
        let mut guard = REPORT.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_some() {
            return;
        }
        *guard = Some(state);
    }
    {
        let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
        sink.path = path;
        sink.world_rank = world_rank;
    }
    // SAFETY: registers a handler that only stores to an atomic.
    unsafe {
        libc::pthread_atfork(None, None, Some(in_child));
    }
    write_now();
    if writes && !SINK.lock().unwrap_or_else(|e| e.into_inner()).given_up {
        flusher::start();
    }
}

/// Begins the record of one call: its MPI name, the file name for `MPI_File_open` (else NULL),
/// the size of the communicator (or group) of the call. Returns NULL on failure (and in a child
/// made by `fork`); every other function accepts it.
///
/// # Safety
/// Strings are NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_call_begin(
    call: *const c_char,
    filename: *const c_char,
    comm_size: c_int,
) -> *mut Call {
    if FORKED.load(Ordering::Relaxed) {
        return std::ptr::null_mut();
    }
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY (`text` and `bytes`): the strings are NULL or NUL-terminated (this function's
        // contract).
        Box::into_raw(Box::new(Call {
            call: unsafe { text(call) }.unwrap_or_default(),
            filename: unsafe { bytes(filename) }.map(<[u8]>::to_vec),
            comm_size,
            caller: None,
            through: None,
            requested: Vec::new(),
            reported: None,
            mismatches: Vec::new(),
            notes: Vec::new(),
            findings: None,
            pending: None,
        }))
    }))
    .unwrap_or(std::ptr::null_mut())
}

unsafe fn call_mut<'a>(call: *mut Call) -> Option<&'a mut Call> {
    // SAFETY: the pointer comes from `mpi_info_hintcheck_call_begin` and is used by one thread
    // until `mpi_info_hintcheck_call_end` takes it back.
    unsafe { call.as_mut() }
}

/// The pairs the caller passed: `len` bytes of `key\0value\0`... in the info object's order.
///
/// # Safety
/// `call` from `mpi_info_hintcheck_call_begin` (or NULL); `pairs` NULL or `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_requested(call: *mut Call, pairs: *const c_char, len: usize) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `call` is NULL or from call_begin, used by this thread only; `pairs` is NULL or
        // `len` bytes (this function's contract).
        if let Some(c) = unsafe { call_mut(call) } {
            c.requested = unsafe { byte_slice(pairs, len) }.to_vec();
        }
    }));
}

/// The pairs the MPI reports after the call, in the same form (possibly none). Not called when
/// the MPI reports nothing (a failed call, a spawn).
///
/// # Safety
/// As for `mpi_info_hintcheck_requested`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_reported(call: *mut Call, pairs: *const c_char, len: usize) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `mpi_info_hintcheck_requested`.
        if let Some(c) = unsafe { call_mut(call) } {
            c.reported = Some(unsafe { byte_slice(pairs, len) }.to_vec());
        }
    }));
}

unsafe fn byte_slice<'a>(ptr: *const c_char, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller passes len readable bytes.
        unsafe { std::slice::from_raw_parts(ptr as *const u8, len) }
    }
}

/// The pairs of a `key\0value\0`... buffer.
fn pairs_of(buf: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut parts = buf.split(|&b| b == 0);
    let mut out = Vec::new();
    while let (Some(k), Some(v)) = (parts.next(), parts.next()) {
        if k.is_empty() {
            break;
        }
        out.push((k, v));
    }
    out
}

/// Notes something about the call (a failure of the tool, a check that could not be made).
///
/// # Safety
/// As for `mpi_info_hintcheck_requested`.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_note(call: *mut Call, message: *const c_char) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `message` is NULL or NUL-terminated; `call` as in `mpi_info_hintcheck_requested`.
        let message = unsafe { text(message) }.unwrap_or_default();
        // SAFETY: as above.
        match unsafe { call_mut(call) } {
            Some(c) => c.notes.push(message),
            None => {
                with_report(|r| {
                    r.notes.push(message);
                    r.changed();
                });
            }
        }
    }));
}

/// A pair of an info object that could not be read: the `index`th key of the caller's object
/// (`reported` 0) or of the one the MPI reports (`reported` 1); `key` as
/// `MPI_Info_get_nthkey` gave it, or NULL if that call failed. `max_key` is the MPI's
/// `MPI_MAX_INFO_KEY`: a key one character shorter may be a longer one cut (MPICH 4.0.2 cuts
/// a key of 255 characters to 254, and then finds no value under it). Noted on the call.
///
/// # Safety
/// As for `mpi_info_hintcheck_requested`; `key` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_unread(
    call: *mut Call,
    reported: c_int,
    index: c_int,
    key: *const c_char,
    max_key: c_int,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `mpi_info_hintcheck_requested`; `key` is NULL or NUL-terminated.
        let (Some(c), key) = (unsafe { call_mut(call) }, unsafe { bytes(key) }) else { return };
        let whose = if reported != 0 { "the hints the MPI reports" } else { "the caller's hints" };
        let note = match key {
            None => {
                format!("key number {index} of {whose} could not be read (MPI_Info_get_nthkey failed): it is left out")
            }
            Some(k) => {
                let mut note = format!(
                    "the key '{}' ({} characters) of {whose}, as MPI_Info_get_nthkey gave it, has no value the MPI can read: the pair is left out",
                    Escaped(k),
                    k.len()
                );
                if max_key > 0 && k.len() + 1 >= max_key as usize {
                    let _ = write!(note, "; MPI_MAX_INFO_KEY is {max_key}: the MPI may have cut a longer key");
                }
                note
            }
        };
        c.notes.push(note);
    }));
}

/// Records the hints of every process of a collective call whose digests differed: `nranks`
/// processes, their ranks in `MPI_COMM_WORLD`, the length of each one's serialized hints
/// (`key\0value\0`...) and the concatenation. Names each key on which they disagree, with the
/// values and ranks; if `print` (the lowest rank), prints them on standard error at once. The
/// report is written now, with the call in it. Returns the number of such keys.
///
/// # Safety
/// `world_ranks` and `lens` hold `nranks` entries, `buf` their sum of bytes.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_mismatch(
    call: *mut Call,
    nranks: c_int,
    world_ranks: *const c_int,
    lens: *const c_int,
    buf: *const c_char,
    print_it: c_int,
) -> c_int {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `call` as in `mpi_info_hintcheck_requested`.
        let Some(c) = (unsafe { call_mut(call) }) else { return 0 };
        if nranks <= 0 || world_ranks.is_null() || lens.is_null() {
            return 0;
        }
        let n = nranks as usize;
        // SAFETY: the caller's arrays hold nranks entries.
        let ranks = unsafe { std::slice::from_raw_parts(world_ranks, n) };
        // SAFETY: as above.
        let lens = unsafe { std::slice::from_raw_parts(lens, n) };
        let total: usize = lens.iter().map(|&l| l.max(0) as usize).sum();
        // SAFETY: `buf` holds the sum of `lens` bytes (this function's contract).
        let all = if buf.is_null() || total == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(buf as *const u8, total) } };
        let mut per_rank = Vec::with_capacity(n);
        let mut at = 0;
        for &l in lens {
            let l = l.max(0) as usize;
            per_rank.push(pairs_of(&all[at..at + l]));
            at += l;
        }
        // Every key, in the order the processes list them.
        let mut keys: Vec<&[u8]> = Vec::new();
        for pairs in &per_rank {
            for &(k, _) in pairs {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        for key in keys {
            let mut values: Vec<MismatchValue> = Vec::new();
            for (i, pairs) in per_rank.iter().enumerate() {
                let value = pairs.iter().find(|&&(k, _)| k == key).map(|&(_, v)| Text(v.to_vec()));
                match values.iter_mut().find(|g| g.value == value) {
                    Some(g) => g.ranks.push(ranks[i]),
                    None => values.push(MismatchValue { value, ranks: vec![ranks[i]] }),
                }
            }
            if values.len() > 1 {
                c.mismatches.push(report::Mismatch { key: Text(key.to_vec()), values });
            }
        }
        if c.mismatches.is_empty() {
            // The digests differed but the hints are the same (a digest collision cannot make
            // equal hints look different, so this is a tool failure).
            c.notes.push("the processes' digests differed but no key differs".to_string());
        }
        // A disagreement seen before (the same keys and values on the same file, or in the same
        // call on no named file: HDF5's MPI_File_set_view on every collective write) is printed,
        // and written before the call, once.
        let mut digest = match &c.filename {
            Some(name) => [b"file\0", &name[..]].concat(),
            None => [c.call.as_bytes(), &c.comm_size.to_le_bytes()].concat(),
        };
        for m in &c.mismatches {
            digest.extend_from_slice(&mismatch_id(m).to_le_bytes());
        }
        let first = with_report(|r| r.printed.insert(hash_bytes(&digest))).unwrap_or(true);
        if print_it != 0 && first && !c.mismatches.is_empty() {
            let mut msg = format!("mpi-info hintcheck: {}", c.call);
            if let Some(f) = &c.filename {
                let _ = write!(msg, "(\"{}\")", Escaped(f));
            }
            let _ = writeln!(
                msg,
                " on {} processes: the processes passed different hints (this call, or a collective call that follows, may hang or fail):",
                c.comm_size
            );
            for m in &c.mismatches {
                let _ = write!(msg, "  {}:", Escaped(&m.key.0));
                for (i, g) in m.values.iter().enumerate() {
                    let v = g.value.as_ref().map(|v| format!("\"{}\"", Escaped(&v.0))).unwrap_or_else(|| "(not passed)".into());
                    let s = if g.ranks.len() > 1 { "s" } else { "" };
                    let _ = write!(msg, "{} {v} on rank{s} {}", if i > 0 { ";" } else { "" }, ranks_text(&g.ranks));
                }
                msg.push('\n');
            }
            print(&msg);
        }
        // The call may hang or crash: the report is written now with this call in it, so that
        // it holds the disagreement whatever happens next; the entry stays in every rewrite
        // until the call ends. The findings are kept for the call's entry.
        if first && !c.mismatches.is_empty() {
            if let Some(prepared) = prepare(c) {
                let findings = check(c, &prepared.target);
                let mut kept = build_entry(c, &prepared.target.names, &findings, &prepared);
                kept.entry.counted_findings = kept.ids.len() as u64;
                kept.entry.counted_mismatches = kept.mismatch_ids.len() as u64;
                kept.entry.notes.push(
                    "written before the call returned, because the processes disagree: if this note stays, the call did not return"
                        .to_string(),
                );
                let snapshot = with_report(|r| {
                    let id = r.next_pending;
                    r.next_pending += 1;
                    r.pending.push((id, kept.entry));
                    c.pending = Some(id);
                    r.changed();
                    r.snapshot()
                });
                store(snapshot.flatten());
                c.findings = Some(findings);
            }
        }
        c.mismatches.len() as c_int
    }))
    .unwrap_or(0)
}

fn ranks_text(rs: &[i32]) -> String {
    rs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(",")
}

/// Ends a call: checks its hints, compares them with what the MPI reports and adds the call to
/// the report: a call equal to one seen before (but perhaps for its file name) adds to its count,
/// a new one is a new entry. The report is written at once when the new entry found something
/// (a diagnostic, a disagreement, a note), else by the flusher. Takes back `call`. Returns the
/// number of diagnostics and disagreeing keys.
///
/// # Safety
/// `call` from `mpi_info_hintcheck_call_begin` (or NULL), not used again.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_call_end(call: *mut Call) -> c_int {
    if call.is_null() {
        return 0;
    }
    // SAFETY: made by Box::into_raw in call_begin; the C side passes it here once.
    let mut c = unsafe { Box::from_raw(call) };
    catch_unwind(AssertUnwindSafe(|| {
        // A call equal to one seen before only adds to its count (and its file names): the lock
        // is held for a hash look-up, and the checker is not run again.
        let seen = with_report(|r| {
            r.resolve(&mut c);
            r.remember_fapl(&c);
            let i = *r.index.get(&c)?;
            r.calls += 1;
            r.entries[i].add(c.filename.as_deref());
            r.count(i, c.filename.as_deref());
            if let Some(id) = c.pending {
                r.pending.retain(|(p, _)| *p != id);
            }
            r.changed();
            let k = &r.entries[i];
            Some((k.ids.len() + k.mismatch_ids.len()) as c_int)
        })
        .flatten();
        if let Some(n) = seen {
            return n;
        }
        let findings = c.findings.take();
        let Some(prepared) = prepare(&mut c) else { return 0 };
        let findings = findings.unwrap_or_else(|| check(&c, &prepared.target));
        let kept = build_entry(&c, &prepared.target.names, &findings, &prepared);
        let n = (kept.ids.len() + kept.mismatch_ids.len()) as c_int;
        let found = n > 0 || !kept.entry.notes.is_empty();
        let filename = c.filename.take();
        let snapshot = with_report(|r| {
            r.calls += 1;
            if let Some(id) = c.pending {
                r.pending.retain(|(p, _)| *p != id);
            }
            r.changed();
            match r.index.get(&c) {
                // Another thread added the same call meanwhile.
                Some(&i) => {
                    r.entries[i].add(filename.as_deref());
                    r.count(i, filename.as_deref());
                    None
                }
                None => {
                    let i = r.entries.len();
                    r.index.insert(c, i);
                    r.entries.push(kept);
                    r.count(i, filename.as_deref());
                    // The first finding of an entry is written at once.
                    found.then(|| r.snapshot()).flatten()
                }
            }
        });
        store(snapshot.flatten());
        n
    }))
    .unwrap_or(0)
}

impl Kept {
    /// One more call of this entry, on the file `filename` for MPI_File_open.
    fn add(&mut self, filename: Option<&[u8]>) {
        self.entry.count += 1;
        if let (Some(f), Some(names), Some(others)) =
            (filename, self.entry.filenames.as_mut(), self.entry.calls_on_other_files.as_mut())
        {
            if !names.iter().any(|n| n.0 == f) {
                if names.len() < FILENAMES_KEPT {
                    names.push(Text(f.to_vec()));
                } else {
                    *others += 1;
                }
            }
        }
    }
}

fn status(requested: Option<&[u8]>, effective: Option<&[u8]>, misread: bool) -> Status {
    match (requested, effective) {
        (Some(_), None) => Status::Dropped,
        (None, _) => Status::Added,
        (Some(a), Some(b)) if a != b => Status::Changed,
        _ if misread => Status::Misread,
        _ => Status::Kept,
    }
}

/// The checker's findings on the call's hints, for the kind of object the call gives them to.
fn check(c: &Call, target: &TargetList) -> Result<Vec<Finding>, Error> {
    check_pairs(&c.call, &c.requested, target)
}

fn check_pairs(call: &str, requested: &[u8], target: &TargetList) -> Result<Vec<Finding>, Error> {
    let targets = target.targets.as_ref().map_err(|e| *e)?;
    check_object(Vocabulary::builtin()?, targets, object_of(call), &pairs_of(requested))
}

/// The vocabulary's name for the kind of object a call gives hints to (the libraries' calls
/// take the hints of the files they open).
fn object_of(call: &str) -> Option<&'static str> {
    if call.starts_with("MPI_File_") || LIBRARY_CALLS.contains(&call) {
        Some("file")
    } else if call.starts_with("MPI_Win_") {
        Some("window")
    } else if call.starts_with("MPI_Comm_spawn") {
        Some("spawn")
    } else if call.starts_with("MPI_Comm_") {
        Some("communicator")
    } else if call.starts_with("MPI_Session_") {
        Some("session")
    } else {
        None
    }
}

/// What building a call's entry needs of the report, taken under its lock: the checker's
/// targets for the call, the ids of the environment's findings, and the ids of the findings
/// counted where the call's hints entered the stack (the library call in `through`).
struct Prepared {
    target: TargetList,
    env_ids: HashSet<(Variable, u64)>,
    origin: HashSet<u64>,
}

/// Resolves where the call's hints came through and gathers what its entry needs (the checker
/// runs outside the report's lock).
fn prepare(c: &mut Call) -> Option<Prepared> {
    let (target, env_ids, origin_target) = with_report(|r| {
        r.resolve(c);
        let origin = c.through.as_ref().map(|t| r.target_of(&t.call, None));
        (r.target_of(&c.call, c.caller), r.env_ids.clone(), origin)
    })?;
    let mut origin = HashSet::new();
    if let (Some(t), Some(target)) = (&c.through, origin_target) {
        let pairs = pairs_of(&t.pairs);
        for f in check_pairs(&t.call, &t.pairs, &target).unwrap_or_default() {
            if f.severity != Severity::Note {
                let (k, v) = pairs.get(f.pair).copied().unwrap_or((f.key.as_bytes(), f.value.as_bytes()));
                origin.insert(finding_id(k, v, f.code.as_str()));
            }
        }
    }
    Some(Prepared { target, env_ids, origin })
}

/// The environment variable a source is, if it is one.
fn variable_of(from: Origin) -> Option<Variable> {
    match from {
        Origin::RomioHints => Some(Variable::Romio),
        Origin::PnetcdfHints => Some(Variable::Pnetcdf),
        Origin::MpichMpiioHints => Some(Variable::MpichMpiio),
        _ => None,
    }
}

/// The environment's texts and rules (none before `MPI_Init`).
fn rules() -> &'static Rules {
    static NONE: OnceLock<Rules> = OnceLock::new();
    RULES.get().unwrap_or_else(|| NONE.get_or_init(|| Rules::new(Vec::new(), None, None, false)))
}

/// Whether PnetCDF reads a key itself (the vocabulary has a pnetcdf reader for it).
fn pnetcdf_reads(key: &[u8]) -> bool {
    Vocabulary::builtin().is_ok_and(|v| v.entry(key).is_some_and(|e| v.readers(e).any(|r| r.target == "pnetcdf")))
}

/// The call's entry in the report, with a count of 1 and nothing counted yet: `target` names the
/// checker's targets, `findings` is what `check` found.
fn build_entry(c: &Call, target: &str, findings: &Result<Vec<Finding>, Error>, prepared: &Prepared) -> Kept {
    let mut notes = c.notes.clone();
    let pairs = pairs_of(&c.requested);
    let reported = c.reported.as_deref().map(pairs_of);
    let findings: &[Finding] = match findings {
        Ok(f) => f,
        Err(e) => {
            notes.push(format!("the checker failed on these hints ({e}); they were not checked"));
            &[]
        }
    };
    // Where each pair came from.
    let rules = rules();
    let layer_call = LIBRARY_CALLS.contains(&c.call.as_str());
    let program = c.through.as_ref().map(|t| pairs_of(&t.pairs));
    let ctx = |key: &[u8]| Ctx {
        caller: c.caller,
        layer_call,
        opens: matches!(c.call.as_str(), "MPI_File_open" | "ncmpi_create" | "ncmpi_open"),
        program: program.as_deref(),
        filename: c.filename.as_deref(),
        pnetcdf_key: layer_call && pnetcdf_reads(key),
    };
    let sources: Vec<_> = pairs.iter().map(|&(k, v)| rules.requested(k, v, &ctx(k))).collect();
    // The key and value of a finding, as given.
    fn pair_of<'a>(pairs: &[(&'a [u8], &'a [u8])], f: &'a Finding) -> (&'a [u8], &'a [u8]) {
        pairs.get(f.pair).copied().unwrap_or((f.key.as_bytes(), f.value.as_bytes()))
    }
    // Errors and warnings are counted and summarised, unless counted where the hints entered
    // the stack; notes (a hint for a layer above the MPI, an unusual spelling read as meant)
    // are in the report only.
    let mut lines = Vec::new();
    let mut ids = Vec::new();
    let diagnostics = findings
        .iter()
        .map(|f| {
            let (k, v) = pair_of(&pairs, f);
            let id = finding_id(k, v, f.code.as_str());
            let from_env = sources.get(f.pair).and_then(|s| variable_of(s.from));
            let elsewhere =
                prepared.origin.contains(&id) || from_env.is_some_and(|var| prepared.env_ids.contains(&(var, id)));
            if f.severity != Severity::Note && !elsewhere && !ids.contains(&id) {
                ids.push(id);
                let mut line = format!("{}: {}={}: {}: {}", c.call, Escaped(k), Escaped(v), f.code.as_str(), f.message);
                if let Some(s) = &f.suggestion {
                    let _ = write!(line, " [suggestion: {}]", Escaped(s.as_bytes()));
                }
                lines.push((id, line));
            }
            Diagnostic {
                key: Text(k.to_vec()),
                value: Text(v.to_vec()),
                code: f.code.into(),
                severity: f.severity.into(),
                message: f.message.clone(),
                suggestion: f.suggestion.clone(),
            }
        })
        .collect();
    for m in &c.mismatches {
        lines.push((mismatch_id(m), format!("{}: {}: the processes disagree", c.call, Escaped(&m.key.0))));
    }
    let mut effective = Vec::new();
    if let Some(reported) = &reported {
        // Requested keys in the caller's order (the last value of a key given twice).
        let mut seen: Vec<&[u8]> = Vec::new();
        for (k, _) in pairs.iter().rev() {
            if !seen.contains(k) {
                seen.push(k);
            }
        }
        seen.reverse();
        for k in &seen {
            let req = pairs.iter().rev().find(|(rk, _)| rk == k).map(|(_, v)| *v);
            let eff = reported.iter().find(|(rk, _)| rk == k).map(|(_, v)| *v);
            let misread = findings
                .iter()
                .any(|f| pair_of(&pairs, f).0 == *k && matches!(f.code, Code::UnitSuffix | Code::BadValue));
            effective.push(Effective {
                key: Text(k.to_vec()),
                requested: req.map(|v| Text(v.to_vec())),
                effective: eff.map(|v| Text(v.to_vec())),
                status: status(req, eff, misread),
                source: rules.effective(k, eff.or(req).unwrap_or_default(), req, &ctx(k)),
            });
        }
        for (k, v) in reported {
            if !seen.contains(k) {
                effective.push(Effective {
                    key: Text(k.to_vec()),
                    requested: None,
                    effective: Some(Text(v.to_vec())),
                    status: Status::Added,
                    source: rules.effective(k, v, None, &ctx(k)),
                });
            }
        }
    } else if object_of(&c.call) == Some("spawn") {
        notes.push(format!("the MPI has no call that reports the hints in effect after {}", c.call));
    } else if c.call == "H5Pset_fapl_mpio" && !c.notes.iter().any(|n| n.starts_with("the call failed")) {
        notes.push("HDF5 reports nothing of these hints (H5Pget_fapl_mpio gives back the caller's): what the MPI made of them is in the entries of the calls HDF5 makes with them (\"through\": \"H5Pset_fapl_mpio\")".to_string());
    }
    Kept {
        ids,
        mismatch_ids: c.mismatches.iter().map(mismatch_id).collect(),
        counted_ids: HashSet::new(),
        lines,
        entry: Entry {
            count: 1,
            call: c.call.clone(),
            filenames: c.filename.as_ref().map(|f| vec![Text(f.clone())]),
            calls_on_other_files: c.filename.as_ref().map(|_| 0),
            caller: c.caller,
            through: c.through.as_ref().map(|t| t.call.clone()),
            comm_size: c.comm_size,
            target: target.to_string(),
            hints: pairs
                .iter()
                .zip(sources)
                .map(|(&(k, v), source)| Pair { key: Text(k.to_vec()), value: Text(v.to_vec()), source })
                .collect(),
            diagnostics,
            mismatches: c.mismatches.clone(),
            effective,
            counted_findings: 0,
            counted_mismatches: 0,
            notes,
        },
    }
}

impl State {
    /// The checker's targets for a call made by `caller`: for the hints PnetCDF takes or passes
    /// down, PnetCDF's with the MPI's file targets (a key read by one of them only is a note).
    fn target_of(&self, call: &str, caller: Option<LayerKind>) -> TargetList {
        let pnetcdf = matches!(call, "ncmpi_create" | "ncmpi_open") || caller == Some(LayerKind::Pnetcdf);
        match (object_of(call), &self.pnetcdf_target) {
            (Some("file"), Some(t)) if pnetcdf => t.clone(),
            (Some("file"), _) => self.file_target.clone(),
            _ => self.target.clone(),
        }
    }

    /// A layer found (or found again, with its version now known) by the C side's look at the
    /// loaded objects; the targets that depend on it and the environment's check follow.
    fn add_layer(&mut self, layer: LayerKind, version: Option<String>, file: Option<Text>) {
        let release = version.as_deref().and_then(release_of);
        let target = match layer {
            LayerKind::Mpi => self.stack.first().and_then(|l| l.target.clone()),
            LayerKind::Pnetcdf => Some(release.as_ref().map_or("pnetcdf".to_string(), |r| format!("pnetcdf@{r}"))),
            // The vocabulary has no target for HDF5, which reads no key of the info it is given
            // (HDF5 1.10.8 passes it to MPI_File_open and MPI_File_set_view).
            LayerKind::Hdf5 => None,
        };
        let name = match layer {
            LayerKind::Mpi => self.implementation_name.clone(),
            LayerKind::Pnetcdf => Some("PnetCDF".to_string()),
            LayerKind::Hdf5 => Some("HDF5".to_string()),
        };
        let shown = release.clone().or(version);
        match self.stack.iter_mut().find(|l| l.layer == layer) {
            Some(l) => {
                if l.version.is_some() && shown.is_none() && file.is_none() {
                    return;
                }
                if shown.is_some() {
                    l.version = shown;
                    l.target = target.clone();
                }
                if file.is_some() {
                    l.file = file;
                }
            }
            None => self.stack.push(Layer { layer, name, version: shown, target: target.clone(), file }),
        }
        if layer == LayerKind::Pnetcdf {
            let target = target.unwrap_or_else(|| "pnetcdf".to_string());
            let vocabulary = Vocabulary::builtin();
            // Already among the targets (MPI_INFO_HINTCHECK_TARGETS=...,pnetcdf): as they are.
            let named = self.file_target.names.split(',').any(|n| n == "pnetcdf" || n.starts_with("pnetcdf@"));
            let names =
                if named { self.file_target.names.clone() } else { format!("{target},{}", self.file_target.names) };
            let targets = vocabulary.and_then(|v| Targets::parse(v, Some(&names)).map_err(Error::from));
            self.pnetcdf_target = Some(TargetList { names, targets });
            self.check_environment();
        }
        self.changed();
    }

    /// Checks the environment's hint texts as their readers read them, for the layer that reads
    /// each (every rank does, for the ids; rank 0's report lists them).
    fn check_environment(&mut self) {
        let Some(rules) = RULES.get() else { return };
        let vocabulary = Vocabulary::builtin();
        let (mut environment, mut env_ids) = (Vec::new(), HashSet::new());
        let has_pnetcdf = self.stack.iter().any(|l| l.layer == LayerKind::Pnetcdf);
        for text in &rules.texts {
            let (read_by, targets, why) = match text.variable {
                Variable::Romio => (rules.romio_read.then_some(LayerKind::Mpi), &self.romio_target, &rules.romio_why),
                Variable::MpichMpiio => (rules.cray_read.then_some(LayerKind::Mpi), &self.target, &rules.cray_why),
                Variable::Pnetcdf => match &self.pnetcdf_target {
                    Some(t) if has_pnetcdf => (Some(LayerKind::Pnetcdf), t, &rules.pnetcdf_why),
                    _ => (None, &self.target, &rules.pnetcdf_why),
                },
            };
            let mut entry = EnvironmentEntry {
                variable: text.variable,
                file: text.file.clone().map(Text),
                value: if text.file.is_none() { text.text.clone().ok().map(Text) } else { None },
                read_by,
                target: None,
                findings: Vec::new(),
                counted_findings: 0,
                notes: text.note.iter().cloned().collect(),
            };
            match (&text.text, read_by) {
                (_, None) => entry.notes.push(match text.variable {
                    Variable::Pnetcdf => {
                        "not read: PnetCDF is not loaded in this process (it is checked when PnetCDF is found)"
                            .to_string()
                    }
                    _ => format!("not read: {why}"),
                }),
                (Err(e), Some(_)) => {
                    entry.notes.push(format!("{e}: ROMIO reads no hint from a file, and says nothing"))
                }
                (Ok(bytes), Some(_)) => {
                    entry.target = Some(targets.names.clone());
                    let found = match (vocabulary, &targets.targets) {
                        (Ok(v), Ok(t)) => check_text(bytes, text.syntax(), v, t),
                        (Err(e), _) => Err(e.to_string()),
                        (_, Err(e)) => Err(e.to_string()),
                    };
                    match found {
                        Ok(found) => {
                            for f in found {
                                if f.severity != Severity::Note {
                                    entry.counted_findings += 1;
                                    if let (Some(k), Some(v)) = (f.key, f.value) {
                                        env_ids.insert((text.variable, finding_id(k, v, f.code)));
                                    }
                                }
                                entry.findings.push(TextDiagnostic {
                                    line: f.line as u64,
                                    column: f.column as u64,
                                    key: f.key.map(|k| Text(k.to_vec())),
                                    value: f.value.map(|v| Text(v.to_vec())),
                                    code: f.code.to_string(),
                                    severity: f.severity.into(),
                                    message: f.message,
                                    suggestion: f.suggestion,
                                });
                            }
                        }
                        Err(e) => entry.notes.push(format!("not checked: {e}")),
                    }
                }
            }
            environment.push(entry);
        }
        self.environment = environment;
        self.env_ids = env_ids;
        self.changed();
    }

    /// The library call a call's hints came through, when a library made it with hints the
    /// program gave that library: HDF5's calls with the pairs of an H5Pset_fapl_mpio.
    fn resolve(&self, c: &mut Call) {
        if c.caller == Some(LayerKind::Hdf5) && c.through.is_none() && self.fapl_sets.contains(&c.requested) {
            c.through = Some(Through { call: "H5Pset_fapl_mpio".to_string(), pairs: c.requested.clone() });
        }
    }

    /// Remembers the pairs of an H5Pset_fapl_mpio.
    fn remember_fapl(&mut self, c: &Call) {
        if c.call == "H5Pset_fapl_mpio" && !self.fapl_sets.contains(&c.requested) {
            if self.fapl_sets.len() == FAPL_SETS {
                self.fapl_sets.remove(0);
            }
            self.fapl_sets.push(c.requested.clone());
        }
    }

    /// The summary lines of the environment's errors and warnings.
    fn environment_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for e in &self.environment {
            let name = match &e.file {
                Some(f) => format!("{} {}", e.variable.as_str(), Escaped(&f.0)),
                None => e.variable.as_str().to_string(),
            };
            for f in e.findings.iter().filter(|f| f.severity.0 != Severity::Note) {
                let mut line = format!("{name}:{}:{}: ", f.line, f.column);
                if let (Some(k), Some(v)) = (&f.key, &f.value) {
                    let _ = write!(line, "{}={}: ", Escaped(&k.0), Escaped(&v.0));
                }
                let _ = write!(line, "{}: {}", f.code, f.message);
                if let Some(s) = &f.suggestion {
                    let _ = write!(line, " [suggestion: {}]", Escaped(s.as_bytes()));
                }
                lines.push(line);
            }
        }
        lines
    }
}

/// What identifies a finding for counting it once: its key, value and code (the message names
/// the targets, which differ between a library's call and the MPI call it makes).
fn finding_id(key: &[u8], value: &[u8], code: &str) -> u64 {
    let mut bytes = Vec::with_capacity(key.len() + value.len() + code.len() + 2);
    for part in [key, value, code.as_bytes()] {
        bytes.extend_from_slice(part);
        bytes.push(0);
    }
    hash_bytes(&bytes)
}

/// What identifies a disagreement for counting it once: its key and values (never equal to a
/// finding's id: a tag byte first).
fn mismatch_id(m: &report::Mismatch) -> u64 {
    let mut bytes = vec![1];
    bytes.extend_from_slice(&m.key.0);
    for g in &m.values {
        bytes.push(0);
        if let Some(v) = &g.value {
            bytes.push(1);
            bytes.extend_from_slice(&v.0);
        }
    }
    hash_bytes(&bytes)
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    use std::hash::Hasher as _;
    let mut h = WordHasher::default();
    h.write(bytes);
    h.finish()
}

/// A layer of the I/O stack found by the C side: `layer` "mpi", "pnetcdf" or "hdf5", its
/// version as the library reports it (NULL: not known yet), the shared object it is in (NULL:
/// not known).
///
/// # Safety
/// Strings NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_layer(layer: *const c_char, version: *const c_char, file: *const c_char) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the strings are NULL or NUL-terminated (this function's contract).
        let (layer, version, file) = unsafe { (text(layer), text(version), bytes(file)) };
        let Some(layer) = layer.as_deref().and_then(LayerKind::from_name) else { return };
        let file = file.map(|f| Text(f.to_vec()));
        let snapshot = with_report(|r| {
            r.add_layer(layer, version, file);
            r.snapshot()
        });
        store(snapshot.flatten());
    }));
}

/// The call was made by the code of the library `layer` ("pnetcdf", "hdf5").
///
/// # Safety
/// As for `mpi_info_hintcheck_requested`; `layer` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_caller(call: *mut Call, layer: *const c_char) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `mpi_info_hintcheck_requested`; `layer` is NULL or NUL-terminated.
        if let (Some(c), Some(layer)) = (unsafe { call_mut(call) }, unsafe { text(layer) }) {
            c.caller = LayerKind::from_name(&layer);
        }
    }));
}

/// The call `inner` is made during the library call `outer` (ncmpi_create, ncmpi_open) on this
/// thread, by that library: its hints came through it.
///
/// # Safety
/// Both from `mpi_info_hintcheck_call_begin` (or NULL), used by this thread only.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_through(inner: *mut Call, outer: *const Call) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: both are NULL or from call_begin, distinct, and used by this thread only.
        let (Some(c), Some(o)) = (unsafe { call_mut(inner) }, unsafe { outer.as_ref() }) else { return };
        if LIBRARY_CALLS.contains(&o.call.as_str()) {
            c.through = Some(Through { call: o.call.clone(), pairs: o.requested.clone() });
        }
    }));
}

/// This process's totals, for the reduction at `MPI_Finalize`: checked calls, diagnostics
/// (counting each call), distinct disagreeing keys, calls whose processes disagreed.
///
/// # Safety
/// `out` has room for 4 values.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_counts(out: *mut c_longlong) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if out.is_null() {
            return;
        }
        let counts = with_report(|r| {
            let (f, _) = r.totals();
            let mut keys: Vec<&[u8]> = Vec::new();
            let mut calls = 0;
            for k in &r.entries {
                if !k.entry.mismatches.is_empty() {
                    calls += k.entry.count;
                }
                for m in &k.entry.mismatches {
                    if !keys.contains(&&m.key.0[..]) {
                        keys.push(&m.key.0);
                    }
                }
            }
            [r.calls, f, keys.len() as u64, calls]
        })
        .unwrap_or([0; 4]);
        for (i, v) in counts.iter().enumerate() {
            // SAFETY: room for 4 values.
            unsafe { *out.add(i) = *v as c_longlong };
        }
    }));
}

/// At `MPI_Finalize`: stops the flusher, marks the report finished and writes it a last time.
/// On rank 0 of `MPI_COMM_WORLD`, `totals` holds its own checked calls and diagnostics, the
/// diagnostics of all processes, the most distinct disagreeing keys and the most calls with a
/// disagreement any process saw (NULL elsewhere); the summary is printed on standard error if
/// anything was found anywhere or `MPI_INFO_HINTCHECK_VERBOSE` is set.
///
/// # Safety
/// `totals` NULL or 5 values.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_finalize(totals: *const c_longlong) {
    if FORKED.load(Ordering::Relaxed) {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: NULL or 5 values.
        let totals =
            if totals.is_null() { None } else { Some(unsafe { std::slice::from_raw_parts(totals, 5) }.to_vec()) };
        flusher::stop();
        let summary = with_report(|r| {
            r.finalized = true;
            r.changed();
            (r.snapshot(), totals.and_then(|t| r.summary(&t)))
        });
        let Some((snapshot, summary)) = summary else { return };
        store(snapshot);
        if let Some(mut s) = summary {
            let sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
            // The first line ends with where the report is; the findings follow.
            let at = s.find('\n').unwrap_or(s.len());
            let place = match (&sink.path, sink.given_up) {
                (Some(p), false) => format!(" (report: {})", Escaped(p.as_os_str().as_bytes())),
                (Some(p), true) => format!(" (the report {} could not be written)", Escaped(p.as_os_str().as_bytes())),
                (None, _) => " (MPI_INFO_HINTCHECK=<file> writes the report)".to_string(),
            };
            drop(sink);
            s.insert_str(at, &place);
            print(&s);
        }
    }));
}

impl State {
    /// The summary printed at `MPI_Finalize` (without where the report is), if there is one.
    fn summary(&self, t: &[i64]) -> Option<String> {
        let (calls, diagnostics, all, keys, disagreeing) = (t[0], t[1], t[2], t[3], t[4]);
        if !(self.verbose || diagnostics > 0 || all > 0 || keys > 0) {
            return None;
        }
        let s = |n: i64| if n == 1 { "" } else { "s" };
        let mut text = format!(
            "mpi-info hintcheck: {calls} checked call{} on rank 0, {diagnostics} diagnostic{} ({all} on all {} processes), {keys} hint{} on which processes disagreed",
            s(calls),
            s(diagnostics),
            self.world_size,
            s(keys)
        );
        if keys > 0 {
            let _ = write!(text, " in {disagreeing} call{}", s(disagreeing));
        }
        text.push('\n');
        let environment = if self.world_rank == 0 { self.environment_lines() } else { Vec::new() };
        let counted = self.entries.iter().flat_map(|k| k.lines.iter().filter(|(id, _)| k.counted_ids.contains(id)));
        let lines: Vec<&String> = environment.iter().chain(counted.map(|(_, line)| line)).collect();
        const SHOWN: usize = 10;
        for l in lines.iter().take(SHOWN) {
            let _ = writeln!(text, "  {l}");
        }
        if lines.len() > SHOWN {
            let _ = writeln!(text, "  ... and {} more", lines.len() - SHOWN);
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_of_a_version() {
        assert_eq!(release_of("4.0.2").as_deref(), Some("4.0.2"));
        assert_eq!(release_of("4.1.4rc1").as_deref(), Some("4.1.4"));
        assert_eq!(release_of("5.0.0a1").as_deref(), Some("5.0.0"));
        assert_eq!(release_of("8.1.27").as_deref(), Some("8.1.27"));
        assert_eq!(release_of("4"), None);
        assert_eq!(release_of("x4.1"), None);
        assert_eq!(release_of("4..1"), None);
    }

    #[test]
    fn pairs() {
        let p = pairs_of(b"a\0b\0cc\0\0");
        assert_eq!(p, vec![(&b"a"[..], &b"b"[..]), (&b"cc"[..], &b""[..])]);
    }

    #[test]
    fn statuses() {
        assert_eq!(status(Some(b"1"), Some(b"1"), false), Status::Kept);
        assert_eq!(status(Some(b"1"), Some(b"2"), false), Status::Changed);
        assert_eq!(status(Some(b"1"), None, false), Status::Dropped);
        assert_eq!(status(None, Some(b"1"), false), Status::Added);
        assert_eq!(status(Some(b"16M"), Some(b"16M"), true), Status::Misread);
    }

    #[test]
    fn targets_one_by_one() {
        let mut notes = Vec::new();
        let v = Vocabulary::builtin();
        assert_eq!(targets_from("mpich, no\x1bsuch ,openmpi", v, &mut notes).as_deref(), Some("mpich,openmpi"));
        assert_eq!(
            notes,
            ["MPI_INFO_HINTCHECK_TARGETS: 'no\\u{1b}such' is not a target the checker knows: it is ignored"]
        );
        notes.clear();
        assert_eq!(targets_from("nothing", v, &mut notes), None);
        assert_eq!(notes.len(), 1);
    }

    /// The whole path through the C functions, as hintcheck.c drives it (one test: the report
    /// is the process's), with a ROMIO_HINTS file and PNETCDF_HINTS in its environment.
    #[test]
    fn calls_through_the_c_functions() {
        let cs = |s: &str| std::ffi::CString::new(s).unwrap();
        let (file, other) = (cs("/tmp/a"), cs("/tmp/b"));
        let requested = b"cb_buffer_size\x0016M\0striping_factr\x004\0cb_nodes\x001\0";
        let reported = b"cb_buffer_size\x0016M\0cb_nodes\x002\0romio_cb_read\0automatic\0";
        // A call as the C side makes it: its name, file, requested and reported pairs.
        // SAFETY (here and below): NUL-terminated strings and byte arrays of the lengths given,
        // each call made once on this thread, as the C side makes them.
        let call = |name: &str, filename: Option<&str>, requested: &[u8], reported: Option<&[u8]>| unsafe {
            let (name, filename) = (cs(name), filename.map(cs));
            let c = mpi_info_hintcheck_call_begin(
                name.as_ptr(),
                filename.as_ref().map_or(std::ptr::null(), |f| f.as_ptr()),
                2,
            );
            mpi_info_hintcheck_requested(c, requested.as_ptr() as *const c_char, requested.len());
            if let Some(r) = reported {
                mpi_info_hintcheck_reported(c, r.as_ptr() as *const c_char, r.len());
            }
            c
        };
        let make =
            |name: &std::ffi::CString| call("MPI_File_open", Some(name.to_str().unwrap()), requested, Some(reported));
        // The JSON file: whether it was written since the last look (it is removed after each).
        let path = std::env::temp_dir().join(format!("hintcheck-core-test-{}.json", std::process::id()));
        let written = || std::fs::remove_file(&path).is_ok();
        let texts = vec![
            sources::EnvText {
                variable: Variable::Romio,
                file: Some(b"/etc/romio-hints".to_vec()),
                text: Ok(b"cb_nodes 2\nthree words here\n".to_vec()),
                note: None,
            },
            sources::EnvText {
                variable: Variable::Pnetcdf,
                file: None,
                text: Ok(b"nc_var_align_size=1m;cb_nodes=2".to_vec()),
                note: None,
            },
        ];
        set_up(b"MPICH Version: 4.0.2", Some("mpich".into()), 0, 2, texts);
        unsafe {
            SINK.lock().unwrap().path = Some(path.clone());
            assert_eq!(mpi_info_hintcheck_call_end(make(&file)), 2); // unit-suffix, unknown-key
            assert!(written(), "the first finding of an entry is written at once");
            assert_eq!(mpi_info_hintcheck_call_end(make(&file)), 2); // merged
            assert!(!written(), "a merged call does not rewrite the report");
            assert_eq!(mpi_info_hintcheck_call_end(make(&other)), 2); // a new name, the same entry
            assert!(!written());
            // Two processes that disagree on cb_nodes, one without striping_factr.
            let c = make(&file);
            let all = b"cb_nodes\x001\0striping_factr\x004\0cb_nodes\x002\0";
            let (ranks, lens) = ([0, 1], [28, 11]);
            assert_eq!(
                mpi_info_hintcheck_mismatch(c, 2, ranks.as_ptr(), lens.as_ptr(), all.as_ptr() as *const c_char, 0),
                2
            );
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("did not return"), "a disagreement is written before the call: {text}");
            assert!(written());
            assert_eq!(mpi_info_hintcheck_call_end(c), 4);
            assert!(written());
            // The same disagreement on the same file again: not written before the call again.
            let c = make(&file);
            assert_eq!(
                mpi_info_hintcheck_mismatch(c, 2, ranks.as_ptr(), lens.as_ptr(), all.as_ptr() as *const c_char, 0),
                2
            );
            assert!(!written(), "a disagreement seen before is not written before the call");
            assert_eq!(mpi_info_hintcheck_call_end(c), 4);
            assert_eq!(mpi_info_hintcheck_call_end(std::ptr::null_mut()), 0);
        }
        let snapshot = || {
            with_report(|r| {
                WRITTEN.store(0, Ordering::Release);
                let text = String::from_utf8(r.snapshot().unwrap().1).unwrap();
                serde_json::from_str::<serde_json::Value>(&text).unwrap()
            })
            .unwrap()
        };
        with_report(|r| {
            assert_eq!(r.calls, 5);
            assert!(r.pending.is_empty());
            assert_eq!(r.entries.iter().map(|k| k.entry.count).collect::<Vec<_>>(), [3, 2]);
        });
        let report = snapshot();
        let calls = report["calls"].as_array().unwrap();
        assert_eq!(calls[0]["filenames"], serde_json::json!(["/tmp/a", "/tmp/b"]), "{report}");
        assert_eq!(calls[0]["calls_on_other_files"], 0);
        assert_eq!((&calls[0]["caller"], &calls[0]["through"]), (&serde_json::Value::Null, &serde_json::Value::Null));
        let effective = &calls[0]["effective"];
        let program = serde_json::json!({"from": "program"});
        assert_eq!(
            effective[0],
            serde_json::json!({"key": "cb_buffer_size", "requested": "16M", "effective": "16M", "status": "misread", "source": program})
        );
        assert_eq!(
            effective[1],
            serde_json::json!({"key": "striping_factr", "requested": "4", "effective": null, "status": "dropped", "source": program})
        );
        // The program's cb_nodes, and the ROMIO_HINTS file's, which ROMIO leaves out.
        assert_eq!(effective[2]["status"], "changed");
        assert_eq!(effective[2]["source"]["from"], "program");
        let lost = &effective[2]["source"]["overridden"][0];
        assert_eq!(
            (&lost["from"], &lost["file"], &lost["line"], &lost["value"]),
            (&"ROMIO_HINTS".into(), &"/etc/romio-hints".into(), &1.into(), &"2".into())
        );
        assert!(lost["why"].as_str().unwrap().contains("system_hints.c:188-191"));
        assert_eq!(
            effective[3],
            serde_json::json!({"key": "romio_cb_read", "requested": null, "effective": "automatic", "status": "added", "source": {"from": "implementation"}})
        );
        assert_eq!(
            calls[1]["mismatches"],
            serde_json::json!([
                {"key": "cb_nodes", "values": [{"value": "1", "ranks": [0]}, {"value": "2", "ranks": [1]}]},
                {"key": "striping_factr", "values": [{"value": "4", "ranks": [0]}, {"value": null, "ranks": [1]}]}
            ])
        );
        assert_eq!(calls[0]["diagnostics"][1]["code"], "unknown-key");
        assert_eq!(calls[0]["diagnostics"][1]["suggestion"], "striping_factor");
        // Each finding and disagreement counted once per file: /tmp/a and /tmp/b have the two
        // findings; the calls that disagree, on /tmp/a, add their two keys once.
        assert_eq!(
            (calls[0]["counted_findings"].as_u64(), calls[0]["counted_mismatches"].as_u64()),
            (Some(4), Some(0))
        );
        assert_eq!(
            (calls[1]["counted_findings"].as_u64(), calls[1]["counted_mismatches"].as_u64()),
            (Some(0), Some(2))
        );
        // The environment: the ROMIO_HINTS file read by MPICH, a malformed line in it counted;
        // PNETCDF_HINTS, with no PnetCDF, not read.
        let env = &report["environment"];
        assert_eq!(
            (&env[0]["variable"], &env[0]["read_by"], &env[0]["target"]),
            (&"ROMIO_HINTS".into(), &"mpi".into(), &"mpich@4.0.2".into())
        );
        assert_eq!(
            (&env[0]["findings"][0]["code"], &env[0]["findings"][0]["line"]),
            (&"malformed-line".into(), &2.into())
        );
        assert_eq!(
            (&env[1]["read_by"], &env[1]["findings"], &env[1]["counted_findings"]),
            (&serde_json::Value::Null, &serde_json::json!([]), &0.into())
        );
        assert!(env[1]["notes"][0].as_str().unwrap().contains("PnetCDF is not loaded"));
        assert_eq!((report["findings"].as_u64(), report["mismatches"].as_u64()), (Some(5), Some(2)));
        assert_eq!(report["implementation_name"], "MPICH");
        assert_eq!(
            report["stack"],
            serde_json::json!([{"layer": "mpi", "name": "MPICH", "version": "4.0.2", "target": "mpich@4.0.2", "file": null}])
        );
        // Many files with the same hints: one entry, the first 8 names, the others counted, and
        // the findings once for each file.
        let names: Vec<_> = (0..20).map(|i| cs(&format!("/tmp/many{i}"))).collect();
        for n in &names {
            // SAFETY: as above.
            unsafe { mpi_info_hintcheck_call_end(make(n)) };
        }
        with_report(|r| {
            let e = &r.entries[0].entry;
            assert_eq!(e.count, 23);
            assert_eq!(e.filenames.as_ref().map(Vec::len), Some(8));
            assert_eq!(e.calls_on_other_files, Some(20 - 6));
            assert_eq!(e.counted_findings, 2 * 22);
        });

        // PnetCDF found: PNETCDF_HINTS is now checked for it; ncmpi_create's hints are checked for
        // PnetCDF and the MPI and counted there, not again at the MPI_File_open PnetCDF makes with
        // them, nor are the PNETCDF_HINTS findings.
        let (layer, pnetcdf, so) = (cs("pnetcdf"), cs("1.12.3 of February 21, 2022"), cs("/lib/libpnetcdf.so.0d"));
        // SAFETY: as above.
        unsafe { mpi_info_hintcheck_layer(layer.as_ptr(), pnetcdf.as_ptr(), so.as_ptr()) };
        let program = b"nc_header_align_size\x001k\0cb_nodes\x001\0";
        let merged = b"nc_header_align_size\x001k\0cb_nodes\x002\0nc_var_align_size\x001m\0";
        let outer = call("ncmpi_create", Some("/tmp/n.nc"), program, None);
        let inner = call("MPI_File_open", Some("/tmp/n.nc"), merged, Some(merged));
        let (pnetcdf_layer, view) = (
            cs("pnetcdf"),
            b"nc_header_align_size\x001\0cb_nodes\x002\0nc_var_align_size\x001\0nc_record_align_size\x000\0",
        );
        // SAFETY: as above; `outer` and `inner` are distinct calls of this thread.
        unsafe {
            mpi_info_hintcheck_caller(inner, pnetcdf_layer.as_ptr());
            mpi_info_hintcheck_through(inner, outer);
            assert_eq!(mpi_info_hintcheck_call_end(inner), 0, "counted where the hints entered the stack");
            mpi_info_hintcheck_reported(outer, view.as_ptr() as *const c_char, view.len());
            assert_eq!(mpi_info_hintcheck_call_end(outer), 1);
        }
        let report = snapshot();
        assert_eq!(
            report["stack"][1],
            serde_json::json!({"layer": "pnetcdf", "name": "PnetCDF", "version": "1.12.3", "target": "pnetcdf@1.12.3", "file": "/lib/libpnetcdf.so.0d"})
        );
        let env = &report["environment"][1];
        assert_eq!((&env["read_by"], &env["target"]), (&"pnetcdf".into(), &"pnetcdf@1.12.3,mpich@4.0.2".into()));
        assert_eq!(
            (&env["findings"][0]["code"], &env["findings"][0]["column"], &env["counted_findings"]),
            (&"unit-suffix".into(), &1.into(), &1.into())
        );
        let calls = report["calls"].as_array().unwrap();
        let (inner, outer) = (&calls[2], &calls[3]);
        assert_eq!(
            (&inner["call"], &inner["caller"], &inner["through"]),
            (&"MPI_File_open".into(), &"pnetcdf".into(), &"ncmpi_create".into())
        );
        assert_eq!(inner["target"], "pnetcdf@1.12.3,mpich@4.0.2");
        let codes: Vec<_> =
            inner["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
        assert_eq!(codes, ["unit-suffix", "unit-suffix"], "{inner}");
        assert_eq!(inner["counted_findings"], 0);
        assert_eq!(inner["hints"][0]["source"], serde_json::json!({"from": "program"}));
        let cb = &inner["hints"][1]["source"];
        assert_eq!(
            (&cb["from"], &cb["column"], &cb["overridden"][0]["from"], &cb["overridden"][0]["value"]),
            (&"PNETCDF_HINTS".into(), &22.into(), &"program".into(), &"1".into())
        );
        assert!(cb["overridden"][0]["why"].as_str().unwrap().contains("file.c:146-151 and 236"));
        assert_eq!(outer["call"], "ncmpi_create");
        assert_eq!(
            (&outer["counted_findings"], &outer["diagnostics"][0]["key"]),
            (&1.into(), &"nc_header_align_size".into())
        );
        let eff: Vec<_> = outer["effective"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["key"].as_str().unwrap(), e["status"].as_str().unwrap(), e["source"]["from"].as_str().unwrap()))
            .collect();
        assert_eq!(
            eff,
            [
                ("nc_header_align_size", "changed", "program"),
                ("cb_nodes", "changed", "PNETCDF_HINTS"),
                ("nc_var_align_size", "added", "PNETCDF_HINTS"),
                ("nc_record_align_size", "added", "pnetcdf")
            ]
        );

        // HDF5: H5Pset_fapl_mpio's hints are counted there; HDF5's MPI_File_open and its
        // MPI_File_set_view on every collective write, with the same hints, count nothing more.
        let (hdf5, fapl) = (cs("hdf5"), b"cb_buffer_size\x0016M\0");
        // SAFETY: as above.
        unsafe {
            mpi_info_hintcheck_layer(hdf5.as_ptr(), std::ptr::null(), std::ptr::null());
            assert_eq!(mpi_info_hintcheck_call_end(call("H5Pset_fapl_mpio", None, fapl, None)), 1);
            for name in ["MPI_File_open", "MPI_File_set_view", "MPI_File_set_view", "MPI_File_set_view"] {
                let c = call(name, Some("/tmp/h.h5"), fapl, Some(fapl));
                mpi_info_hintcheck_caller(c, hdf5.as_ptr());
                assert_eq!(mpi_info_hintcheck_call_end(c), 0, "{name}");
            }
        }
        let report = snapshot();
        let calls = report["calls"].as_array().unwrap();
        assert_eq!(
            report["stack"][2],
            serde_json::json!({"layer": "hdf5", "name": "HDF5", "version": null, "target": null, "file": null})
        );
        assert_eq!(
            (&calls[4]["call"], &calls[4]["counted_findings"], &calls[4]["effective"]),
            (&"H5Pset_fapl_mpio".into(), &1.into(), &serde_json::json!([]))
        );
        assert!(calls[4]["notes"][0].as_str().unwrap().contains("HDF5 reports nothing"));
        for (c, count) in [(&calls[5], 1), (&calls[6], 3)] {
            assert_eq!(
                (&c["caller"], &c["through"], &c["count"], &c["counted_findings"]),
                (&"hdf5".into(), &"H5Pset_fapl_mpio".into(), &count.into(), &0.into()),
                "{c}"
            );
        }
        assert_eq!(report["findings"].as_u64(), Some(2 * 22 + 1 + 1 + 1 + 1));
        // The summary shows what was counted: not the calls that repeat a finding counted before.
        let summary = with_report(|r| r.summary(&[0, 1, 1, 0, 0])).flatten().unwrap();
        assert!(summary.contains("\n  ROMIO_HINTS /etc/romio-hints:2:1: malformed-line: "), "{summary}");
        assert!(summary.contains("\n  PNETCDF_HINTS:1:1: nc_var_align_size=1m: unit-suffix: "), "{summary}");
        assert!(!summary.contains("MPI_File_set_view"), "{summary}");
    }
}
