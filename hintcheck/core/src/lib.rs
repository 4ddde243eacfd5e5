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

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_longlong, CStr, OsString};
use std::fmt::Write as _;
use std::io::Write as _;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use mpi_info::hints::{check_object, Code, Escaped, Finding, Severity, Targets, Vocabulary};
use mpi_info::Error;

pub use report::schema_json;
use report::{Diagnostic, Effective, Entry, MismatchValue, Pair, Status, Text};

/// The file names an entry lists; the calls on other files are only counted.
const FILENAMES_KEPT: usize = 8;

/// One intercepted call while it is being built (owned by the intercepting thread). Everything
/// the report says of a call follows from its other fields (the checker is deterministic), so
/// calls whose other fields but the file name are equal are one entry with a count, without
/// checking them again.
#[derive(Clone)]
pub struct Call {
    call: String,
    filename: Option<Vec<u8>>,
    comm_size: i32,
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
    fn key(&self) -> (&str, i32, &[u8], &Option<Vec<u8>>, &[report::Mismatch], &[String]) {
        (&self.call, self.comm_size, &self.requested, &self.reported, &self.mismatches, &self.notes)
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
    /// Diagnostics and disagreeing keys of one call.
    findings: u64,
    mismatches: u64,
    /// Lines for the summary, escaped: "MPI_File_open: key=value: code: message".
    lines: Vec<String>,
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
            calls: self.entries.iter().map(|k| &k.entry).chain(pending).collect(),
        };
        let mut text = serde_json::to_vec_pretty(&out).ok()?;
        text.push(b'\n');
        Some((self.generation, text))
    }

    /// Diagnostics and disagreeing keys, counting each entry's count (and the pending entries).
    fn totals(&self) -> (u64, u64) {
        let mut f: u64 = self.entries.iter().map(|k| k.findings * k.entry.count).sum();
        let mut m: u64 = self.entries.iter().map(|k| k.mismatches * k.entry.count).sum();
        for (_, e) in &self.pending {
            f += e.diagnostics.len() as u64;
            m += e.mismatches.len() as u64;
        }
        (f, m)
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
        let version = unsafe { bytes(version) }.unwrap_or_default();
        let end = version.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
        let implementation = Text(version[..end].to_vec());
        let (implementation_name, implementation_version) = report::implementation_of(&implementation.0);
        // SAFETY: as above.
        let name = unsafe { text(target) }.unwrap_or_else(|| "mpi".to_string());
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
                        notes.push(format!(
                            "MPI_INFO_HINTCHECK_TARGETS names no target the checker knows: {running} used"
                        ));
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
        let file_target = if name == "openmpi" && romio && !has_mpich {
            let romio_release = if release.as_deref().is_some_and(|r| r.starts_with("4.")) { "3.2.1" } else { "3.4.1" };
            list(format!("{},mpich@{romio_release}", target.names), &mut notes)
        } else {
            target.clone()
        };
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
        let state = State {
            implementation,
            implementation_name,
            implementation_version,
            target,
            file_target,
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
    }));
    if r.is_ok() {
        0
    } else {
        -1
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
        if print_it != 0 && !c.mismatches.is_empty() {
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
        if !c.mismatches.is_empty() {
            if let Some(target) = with_report(|r| r.target_of(&c.call)) {
                let findings = check(c, &target);
                let mut kept = build_entry(c, &target.names, &findings);
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
            let i = *r.index.get(&c)?;
            r.calls += 1;
            r.entries[i].add(c.filename.as_deref());
            if let Some(id) = c.pending {
                r.pending.retain(|(p, _)| *p != id);
            }
            r.changed();
            let k = &r.entries[i];
            Some((k.findings + k.mismatches) as c_int)
        })
        .flatten();
        if let Some(n) = seen {
            return n;
        }
        let findings = c.findings.take();
        let Some(target) = with_report(|r| r.target_of(&c.call)) else { return 0 };
        let findings = findings.unwrap_or_else(|| check(&c, &target));
        let kept = build_entry(&c, &target.names, &findings);
        let n = (kept.findings + kept.mismatches) as c_int;
        let found = kept.findings > 0 || kept.mismatches > 0 || !kept.entry.notes.is_empty();
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
                    None
                }
                None => {
                    r.index.insert(c, r.entries.len());
                    r.entries.push(kept);
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
    let targets = target.targets.as_ref().map_err(|e| *e)?;
    check_object(Vocabulary::builtin()?, targets, object_of(&c.call), &pairs_of(&c.requested))
}

/// The vocabulary's name for the kind of object a call gives hints to.
fn object_of(call: &str) -> Option<&'static str> {
    if call.starts_with("MPI_File_") {
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

/// The call's entry in the report, with a count of 1: `target` names the checker's targets,
/// `findings` is what `check` found.
fn build_entry(c: &Call, target: &str, findings: &Result<Vec<Finding>, Error>) -> Kept {
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
    // The key and value of a finding, as given.
    fn pair_of<'a>(pairs: &[(&'a [u8], &'a [u8])], f: &'a Finding) -> (&'a [u8], &'a [u8]) {
        pairs.get(f.pair).copied().unwrap_or((f.key.as_bytes(), f.value.as_bytes()))
    }
    // Errors and warnings are counted and summarised; notes (a hint for a layer above the MPI,
    // an unusual spelling read as meant) are in the report only.
    let mut lines = Vec::new();
    let diagnostics = findings
        .iter()
        .map(|f| {
            let (k, v) = pair_of(&pairs, f);
            if f.severity != Severity::Note {
                let mut line = format!("{}: {}={}: {}: {}", c.call, Escaped(k), Escaped(v), f.code.as_str(), f.message);
                if let Some(s) = &f.suggestion {
                    let _ = write!(line, " [suggestion: {}]", Escaped(s.as_bytes()));
                }
                lines.push(line);
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
        lines.push(format!("{}: {}: the processes disagree", c.call, Escaped(&m.key.0)));
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
            });
        }
        for (k, v) in reported {
            if !seen.contains(k) {
                effective.push(Effective {
                    key: Text(k.to_vec()),
                    requested: None,
                    effective: Some(Text(v.to_vec())),
                    status: Status::Added,
                });
            }
        }
    } else if object_of(&c.call) == Some("spawn") {
        notes.push(format!("the MPI has no call that reports the hints in effect after {}", c.call));
    }
    Kept {
        findings: findings.iter().filter(|f| f.severity != Severity::Note).count() as u64,
        mismatches: c.mismatches.len() as u64,
        lines,
        entry: Entry {
            count: 1,
            call: c.call.clone(),
            filenames: c.filename.as_ref().map(|f| vec![Text(f.clone())]),
            calls_on_other_files: c.filename.as_ref().map(|_| 0),
            comm_size: c.comm_size,
            target: target.to_string(),
            hints: pairs.iter().map(|(k, v)| Pair { key: Text(k.to_vec()), value: Text(v.to_vec()) }).collect(),
            diagnostics,
            mismatches: c.mismatches.clone(),
            effective,
            notes,
        },
    }
}

impl State {
    /// The checker's targets for a call.
    fn target_of(&self, call: &str) -> TargetList {
        if object_of(call) == Some("file") {
            self.file_target.clone()
        } else {
            self.target.clone()
        }
    }
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
        let lines: Vec<&String> = self.entries.iter().flat_map(|k| k.lines.iter()).collect();
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
    /// is the process's).
    #[test]
    fn calls_through_the_c_functions() {
        let cs = |s: &str| std::ffi::CString::new(s).unwrap();
        let (version, target) = (cs("MPICH Version: 4.0.2"), cs("mpich"));
        let (open, file, other) = (cs("MPI_File_open"), cs("/tmp/a"), cs("/tmp/b"));
        let requested = b"cb_buffer_size\x0016M\0striping_factr\x004\0cb_nodes\x001\0";
        let reported = b"cb_buffer_size\x0016M\0cb_nodes\x002\0romio_cb_read\0automatic\0";
        // SAFETY (here and below): NUL-terminated strings and byte arrays of the lengths given,
        // each call made once on this thread, as the C side makes them.
        let make = |name: &std::ffi::CString| unsafe {
            let c = mpi_info_hintcheck_call_begin(open.as_ptr(), name.as_ptr(), 2);
            mpi_info_hintcheck_requested(c, requested.as_ptr() as *const c_char, requested.len());
            mpi_info_hintcheck_reported(c, reported.as_ptr() as *const c_char, reported.len());
            c
        };
        // The JSON file: whether it was written since the last look (it is removed after each).
        let path = std::env::temp_dir().join(format!("hintcheck-core-test-{}.json", std::process::id()));
        let written = || std::fs::remove_file(&path).is_ok();
        unsafe {
            assert_eq!(mpi_info_hintcheck_init(version.as_ptr(), target.as_ptr(), 0, 2), 0);
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
            assert_eq!(mpi_info_hintcheck_call_end(std::ptr::null_mut()), 0);
        }
        let text = with_report(|r| {
            assert_eq!(r.calls, 4);
            assert!(r.pending.is_empty());
            assert_eq!(r.entries.iter().map(|k| k.entry.count).collect::<Vec<_>>(), [3, 1]);
            WRITTEN.store(0, Ordering::Release);
            String::from_utf8(r.snapshot().unwrap().1).unwrap()
        })
        .unwrap();
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        let calls = report["calls"].as_array().unwrap();
        assert_eq!(calls[0]["filenames"], serde_json::json!(["/tmp/a", "/tmp/b"]), "{text}");
        assert_eq!(calls[0]["calls_on_other_files"], 0);
        let effective = &calls[0]["effective"];
        assert_eq!(
            effective[0],
            serde_json::json!({"key": "cb_buffer_size", "requested": "16M", "effective": "16M", "status": "misread"})
        );
        assert_eq!(
            effective[1],
            serde_json::json!({"key": "striping_factr", "requested": "4", "effective": null, "status": "dropped"})
        );
        assert_eq!(
            effective[2],
            serde_json::json!({"key": "cb_nodes", "requested": "1", "effective": "2", "status": "changed"})
        );
        assert_eq!(
            effective[3],
            serde_json::json!({"key": "romio_cb_read", "requested": null, "effective": "automatic", "status": "added"})
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
        assert_eq!((report["findings"].as_u64(), report["mismatches"].as_u64()), (Some(8), Some(2)));
        assert_eq!(report["implementation_name"], "MPICH");
        // Many files with the same hints: one entry, the first 8 names, the others counted.
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
        });
    }
}
