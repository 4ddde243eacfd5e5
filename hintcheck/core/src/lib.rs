//! The checking and report core of `libmpi_info_hintcheck` (docs/hintcheck.md).
//!
//! `hintcheck/hintcheck.c`, built with an MPI's own compiler wrapper, intercepts the MPI calls
//! that take an info argument and does everything that talks to the MPI (reading the caller's
//! hints and what the MPI reports back through `PMPI_`, the agreement collective). It hands the
//! text to the plain C functions below (`mpi_info_hintcheck_*`, not exported from the shared
//! library: its version script keeps only the intercepted `MPI_` names), which check the hints
//! with [`mpi_info::hints`], compare what was asked with what the MPI reports, keep the report
//! of this process, write it as JSON and print what must be printed.
//!
//! Every entry point catches panics and never fails the caller: a failure of the checker is
//! noted in the report and otherwise ignored. The report is behind one mutex; a call under
//! construction belongs to the thread that made it.

#![deny(unsafe_op_in_unsafe_fn)]

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_longlong, CStr};
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use mpi_info::hints::{check_object, Code, Finding, Targets, Vocabulary};
use mpi_info::Error;

/// One intercepted call while it is being built (owned by the intercepting thread). Everything
/// the report says of a call follows from its other fields (the checker is deterministic), so
/// two calls whose other fields are equal are merged into one entry with a count, without
/// checking the second one again.
#[derive(Clone)]
pub struct Call {
    call: String,
    filename: Option<String>,
    comm_size: i32,
    /// The caller's pairs, `key\0value\0`... in the info object's order.
    requested: Vec<u8>,
    /// What the MPI reports after the call, in the same form; `None` when it has no way to say.
    reported: Option<Vec<u8>>,
    mismatches: Vec<Mismatch>,
    notes: Vec<String>,
    /// The checker's findings, once made: by `mpi_info_hintcheck_mismatch` for a call whose
    /// processes disagree (its entry is written before the call), else when the call ends.
    findings: Option<Result<Vec<Finding>, Error>>,
}

impl Call {
    /// What makes two calls equal: every field but `findings`, which follows from them.
    #[allow(clippy::type_complexity)]
    fn key(&self) -> (&str, &Option<String>, i32, &[u8], &Option<Vec<u8>>, &[Mismatch], &[String]) {
        (&self.call, &self.filename, self.comm_size, &self.requested, &self.reported, &self.mismatches, &self.notes)
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

/// A key on which the processes of a collective call disagree: each value (`None`: the key was
/// not passed) with the ranks (in `MPI_COMM_WORLD`) that passed it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Mismatch {
    key: String,
    groups: Vec<(Option<String>, Vec<i32>)>,
}

/// One entry of the report: the JSON text of its fields (without `count`), how many identical
/// calls it stands for, and what it found.
#[derive(Clone)]
struct Entry {
    head: String,
    body: String,
    count: u64,
    findings: u64,
    mismatches: u64,
    /// Lines for the summary: "MPI_File_open: key=value: code".
    lines: Vec<String>,
}

/// The checker's targets: the list as the report names it, and parsed (`Err`: the vocabulary
/// could not be loaded).
#[derive(Clone)]
struct TargetList {
    names: String,
    targets: Result<Targets, Error>,
}

struct Report {
    implementation: String,
    /// The checker's targets: the running MPI's, or MPI_INFO_HINTCHECK_TARGETS.
    target: TargetList,
    /// The same for files (Open MPI with its ROMIO component adds mpich).
    file_target: TargetList,
    world_rank: i32,
    world_size: i32,
    /// Where this process writes the JSON report, if it does.
    json_path: Option<String>,
    verbose: bool,
    entries: Vec<Entry>,
    /// Each entry's call, to merge equal ones.
    index: Index,
    /// Entries by call without the file name: a file opened under a new name with hints seen
    /// before is not checked again.
    checked: Index,
    notes: Vec<String>,
    calls: u64,
    finalized: bool,
}

static REPORT: Mutex<Option<Report>> = Mutex::new(None);

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

fn with_report<R>(f: impl FnOnce(&mut Report) -> R) -> Option<R> {
    let mut guard = REPORT.lock().unwrap_or_else(|e| e.into_inner());
    guard.as_mut().map(f)
}

/// A C string (NULL: none), lossily as UTF-8 (keys and values are ASCII in practice).
unsafe fn text(ptr: *const c_char) -> Option<String> {
    if ptr.is_null() {
        None
    } else {
        // SAFETY: the C side passes NUL-terminated strings it owns for the whole call.
        Some(String::from_utf8_lossy(unsafe { CStr::from_ptr(ptr) }.to_bytes()).into_owned())
    }
}

/// Sets up this process's report: the MPI's version string, the checker's target name(s) for
/// it, the rank and size of `MPI_COMM_WORLD`. Reads `MPI_INFO_HINTCHECK` (the JSON file: written
/// by rank 0, or by every rank if the name holds `%r`, replaced by the rank) and
/// `MPI_INFO_HINTCHECK_VERBOSE`. Returns 0, or -1 if the report could not be set up.
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
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `version` and `target` are NULL or NUL-terminated (this function's contract).
        let implementation = unsafe { text(version) }.unwrap_or_default().trim_end().to_string();
        // SAFETY: as above.
        let running = unsafe { text(target) }.unwrap_or_else(|| "mpi".to_string());
        let mut notes = Vec::new();
        let vocabulary = Vocabulary::builtin();
        let list = |names: String| TargetList {
            targets: vocabulary.and_then(|v| Targets::parse(v, Some(&names)).map_err(Error::from)),
            names,
        };
        // MPI_INFO_HINTCHECK_TARGETS: the checker's targets instead of the running MPI's (for
        // hints that must also work elsewhere: "mpich,openmpi").
        let target = match std::env::var("MPI_INFO_HINTCHECK_TARGETS").ok().filter(|t| !t.trim().is_empty()) {
            Some(t) => match list(t.clone()) {
                given @ TargetList { targets: Ok(_), .. } => given,
                _ => {
                    notes.push(format!(
                        "MPI_INFO_HINTCHECK_TARGETS={t} names a target the checker does not know: {running} used"
                    ));
                    list(running.clone())
                }
            },
            None => list(running.clone()),
        };
        // Open MPI opens files with OMPIO unless its io framework is told to use its ROMIO
        // component, which reads ROMIO's hints (listed under mpich in the vocabulary). Its
        // MPI_File_get_info returns the caller's hints either way, so the environment decides.
        let romio = std::env::var("OMPI_MCA_io").map(|v| v.contains("romio")).unwrap_or(false);
        let has_mpich = matches!((vocabulary, &target.targets), (Ok(v), Ok(t)) if t.contains(v, "mpich"));
        let file_target = if running == "openmpi" && romio && !has_mpich {
            list(format!("{},mpich", target.names))
        } else {
            target.clone()
        };
        let json_path = std::env::var("MPI_INFO_HINTCHECK").ok().filter(|p| !p.is_empty()).and_then(|p| {
            if p.contains("%r") {
                Some(p.replace("%r", &world_rank.to_string()))
            } else if world_rank == 0 {
                Some(p)
            } else {
                None
            }
        });
        let verbose = std::env::var("MPI_INFO_HINTCHECK_VERBOSE").map(|v| !v.is_empty() && v != "0").unwrap_or(false);
        if let Err(e) = Vocabulary::builtin() {
            notes.push(format!("the checker's vocabulary could not be loaded: {e}"));
        }
        let report = Report {
            implementation,
            target,
            file_target,
            world_rank,
            world_size,
            json_path,
            verbose,
            entries: Vec::new(),
            index: Index::default(),
            checked: Index::default(),
            notes,
            calls: 0,
            finalized: false,
        };
        let mut guard = REPORT.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(report);
        }
        if let Some(r) = guard.as_mut() {
            r.write_json();
        }
    }));
    if r.is_ok() {
        0
    } else {
        -1
    }
}

/// Begins the record of one call: its MPI name, the file name for `MPI_File_open` (else NULL),
/// the size of the communicator (or group) of the call. Returns NULL on failure; every other
/// function accepts it.
///
/// # Safety
/// Strings are NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_call_begin(
    call: *const c_char,
    filename: *const c_char,
    comm_size: c_int,
) -> *mut Call {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY (the two `text` calls): the strings are NULL or NUL-terminated (this
        // function's contract).
        Box::into_raw(Box::new(Call {
            call: unsafe { text(call) }.unwrap_or_default(),
            filename: unsafe { text(filename) },
            comm_size,
            requested: Vec::new(),
            reported: None,
            mismatches: Vec::new(),
            notes: Vec::new(),
            findings: None,
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
/// the MPI has no way to report them.
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
                with_report(|r| r.notes.push(message));
            }
        }
    }));
}

/// Records the hints of every process of a collective call whose digests differed: `nranks`
/// processes, their ranks in `MPI_COMM_WORLD`, the length of each one's serialized hints
/// (`key\0value\0`...) and the concatenation. Names each key on which they disagree, with the
/// values and ranks; if `print` (the lowest rank), prints them on standard error at once.
/// Returns the number of such keys.
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
    print: c_int,
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
            let mut groups: Vec<(Option<String>, Vec<i32>)> = Vec::new();
            for (i, pairs) in per_rank.iter().enumerate() {
                let value = pairs.iter().find(|&&(k, _)| k == key).map(|&(_, v)| String::from_utf8_lossy(v).into_owned());
                match groups.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, rs)) => rs.push(ranks[i]),
                    None => groups.push((value, vec![ranks[i]])),
                }
            }
            if groups.len() > 1 {
                c.mismatches.push(Mismatch { key: String::from_utf8_lossy(key).into_owned(), groups });
            }
        }
        if c.mismatches.is_empty() {
            // The digests differed but the hints are the same (a digest collision cannot make
            // equal hints look different, so this is a tool failure).
            c.notes.push("the processes' digests differed but no key differs".to_string());
        }
        // The call may hang or crash: the report is written now with this call in it, so that
        // it holds the disagreement whatever happens next. The findings are kept for the call's
        // entry when it ends.
        let report = if c.mismatches.is_empty() {
            None
        } else {
            with_report(|r| (r.target_of(&c.call), r.json_path.is_some()))
        };
        if let Some((target, writes)) = report {
            let findings = check(c, &target);
            if writes {
                let mut entry = build_entry(c, &target.names, &findings, true);
                entry.head = head_of(c);
                with_report(|r| {
                    r.entries.push(entry);
                    r.calls += 1;
                    r.write_json();
                    r.calls -= 1;
                    r.entries.pop();
                });
            }
            c.findings = Some(findings);
        }
        if print != 0 && !c.mismatches.is_empty() {
            let mut msg = format!(
                "mpi-info hintcheck: {}{} on {} processes: the processes passed different hints (this call, or a collective call that follows, may hang or fail):\n",
                c.call,
                c.filename.as_ref().map(|f| format!("(\"{f}\")")).unwrap_or_default(),
                c.comm_size
            );
            for m in &c.mismatches {
                let _ = write!(msg, "  {}:", m.key);
                for (i, (v, rs)) in m.groups.iter().enumerate() {
                    let v = v.as_ref().map(|v| format!("\"{v}\"")).unwrap_or_else(|| "(not passed)".to_string());
                    let _ = write!(msg, "{} {} on rank{} {}", if i > 0 { ";" } else { "" }, v, if rs.len() > 1 { "s" } else { "" }, ranks_text(rs));
                }
                msg.push('\n');
            }
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(msg.as_bytes());
            let _ = err.flush();
        }
        c.mismatches.len() as c_int
    }))
    .unwrap_or(0)
}

fn ranks_text(rs: &[i32]) -> String {
    rs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(",")
}

/// Ends a call: checks its hints, compares them with what the MPI reports and adds the call to
/// the report: a call equal to one seen before adds to its count, a new one is a new entry, and
/// only then is the JSON file rewritten. Takes back `call`. Returns the number of diagnostics
/// and disagreeing keys.
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
        // A call equal to one seen before only adds to its count: the lock is held for a hash
        // look-up, the checker is not run again and the file is not rewritten.
        let seen = with_report(|r| {
            r.calls += 1;
            let i = *r.index.get(&c)?;
            r.entries[i].count += 1;
            let e = &r.entries[i];
            Some((e.findings + e.mismatches) as c_int)
        })
        .flatten();
        if let Some(n) = seen {
            return n;
        }
        let findings = c.findings.take();
        let nameless = c.filename.is_some().then(|| {
            let mut n = c.clone();
            n.filename = None;
            n
        });
        let known =
            nameless.as_ref().and_then(|n| with_report(|r| r.checked.get(n).map(|&i| r.entries[i].clone())).flatten());
        let mut entry = match known {
            Some(mut e) => {
                e.count = 1;
                e
            }
            None => {
                let Some(target) = with_report(|r| r.target_of(&c.call)) else { return 0 };
                let findings = findings.unwrap_or_else(|| check(&c, &target));
                build_entry(&c, &target.names, &findings, false)
            }
        };
        entry.head = head_of(&c);
        let n = (entry.findings + entry.mismatches) as c_int;
        with_report(|r| match r.index.get(&c) {
            // Another thread added the same call meanwhile.
            Some(&i) => r.entries[i].count += 1,
            None => {
                if let Some(n) = nameless {
                    r.checked.entry(n).or_insert(r.entries.len());
                }
                r.index.insert(c, r.entries.len());
                r.entries.push(entry);
                r.write_json();
            }
        });
        n
    }))
    .unwrap_or(0)
}

fn status(requested: Option<&[u8]>, effective: Option<&[u8]>, misread: bool) -> &'static str {
    match (requested, effective) {
        (Some(_), None) => "dropped",
        (None, _) => "added",
        (Some(a), Some(b)) if a != b => "changed",
        _ if misread => "misread",
        _ => "kept",
    }
}

/// The checker's findings on the call's hints, for the kind of object the call gives them to.
fn check(c: &Call, target: &TargetList) -> Result<Vec<Finding>, Error> {
    let targets = target.targets.as_ref().map_err(|e| *e)?;
    check_object(Vocabulary::builtin()?, targets, object_of(&c.call), &pairs_of(&c.requested))
}

/// The call's entry in the report, but for its head (the call's name and file name): `target`
/// names the checker's targets, `findings` is what `check` found; `pending`: written before the
/// call returned (by `mpi_info_hintcheck_mismatch`).
fn build_entry(c: &Call, target: &str, findings: &Result<Vec<Finding>, Error>, pending: bool) -> Entry {
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
    let mut body = String::new();
    let _ = write!(body, "\"comm_size\": {}, \"target\": {}", c.comm_size, json_str(target));
    body.push_str(", \"hints\": [");
    for (i, (k, v)) in pairs.iter().enumerate() {
        let _ = write!(body, "{}{{\"key\": {}, \"value\": {}}}", sep(i), json_bytes(k), json_bytes(v));
    }
    body.push_str("], \"diagnostics\": [");
    let mut lines = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let _ = write!(
            body,
            "{}{{\"key\": {}, \"value\": {}, \"code\": {}, \"message\": {}",
            sep(i),
            json_str(&f.key),
            json_str(&f.value),
            json_str(f.code.as_str()),
            json_str(&f.message)
        );
        if let Some(s) = &f.suggestion {
            let _ = write!(body, ", \"suggestion\": {}", json_str(s));
        }
        body.push('}');
        lines.push(format!(
            "{}: {}={}: {}: {}{}",
            c.call,
            f.key,
            f.value,
            f.code.as_str(),
            f.message,
            f.suggestion.as_ref().map(|s| format!(" [suggestion: {s}]")).unwrap_or_default()
        ));
    }
    body.push_str("], \"mismatches\": [");
    for (i, m) in c.mismatches.iter().enumerate() {
        let _ = write!(body, "{}{{\"key\": {}, \"values\": [", sep(i), json_str(&m.key));
        for (j, (v, rs)) in m.groups.iter().enumerate() {
            let v = v.as_ref().map(|v| json_str(v)).unwrap_or_else(|| "null".to_string());
            let _ = write!(
                body,
                "{}{{\"value\": {}, \"ranks\": [{}]}}",
                sep(j),
                v,
                rs.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ")
            );
        }
        body.push_str("]}");
        lines.push(format!("{}: {}: the processes disagree", c.call, m.key));
    }
    body.push_str("], \"effective\": [");
    match &reported {
        None => {
            body.push(']');
        }
        Some(reported) => {
            let mut i = 0;
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
                let key = String::from_utf8_lossy(k);
                let misread =
                    findings.iter().any(|f| f.key == key && matches!(f.code, Code::UnitSuffix | Code::BadValue));
                push_effective(&mut body, &mut i, k, req, eff, status(req, eff, misread));
            }
            for (k, v) in reported {
                if !seen.contains(k) {
                    push_effective(&mut body, &mut i, k, None, Some(v), "added");
                }
            }
            body.push(']');
        }
    }
    if pending {
        notes.push("written before the call returned, because the processes disagree: if this note stays, the call did not return".to_string());
    } else if c.reported.is_none() {
        notes.push(format!("the MPI has no call that reports the hints in effect after {}", c.call));
    }
    body.push_str(", \"notes\": [");
    for (i, n) in notes.iter().enumerate() {
        let _ = write!(body, "{}{}", sep(i), json_str(n));
    }
    body.push(']');
    Entry {
        head: String::new(),
        body,
        count: 1,
        findings: findings.len() as u64,
        mismatches: c.mismatches.len() as u64,
        lines,
    }
}

/// `"call": ..., "filename": ...` of an entry.
fn head_of(c: &Call) -> String {
    let mut head = format!("\"call\": {}", json_str(&c.call));
    if let Some(f) = &c.filename {
        let _ = write!(head, ", \"filename\": {}", json_str(f));
    }
    head
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

fn push_effective(body: &mut String, i: &mut usize, key: &[u8], req: Option<&[u8]>, eff: Option<&[u8]>, status: &str) {
    let opt = |v: Option<&[u8]>| v.map(json_bytes).unwrap_or_else(|| "null".to_string());
    let _ = write!(
        body,
        "{}{{\"key\": {}, \"requested\": {}, \"effective\": {}, \"status\": {}}}",
        sep(*i),
        json_bytes(key),
        opt(req),
        opt(eff),
        json_str(status)
    );
    *i += 1;
}

fn sep(i: usize) -> &'static str {
    if i == 0 {
        ""
    } else {
        ", "
    }
}

fn json_bytes(b: &[u8]) -> String {
    json_str(&String::from_utf8_lossy(b))
}

fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    // Runs of characters that need no escape are copied whole.
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        if b >= 0x20 && b != b'"' && b != b'\\' && b != 0x7f {
            continue;
        }
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
    out
}

impl Report {
    /// The checker's targets for a call.
    fn target_of(&self, call: &str) -> TargetList {
        if object_of(call) == Some("file") {
            self.file_target.clone()
        } else {
            self.target.clone()
        }
    }

    fn totals(&self) -> (u64, u64) {
        let f = self.entries.iter().map(|e| e.findings * e.count).sum();
        let m = self.entries.iter().map(|e| e.mismatches * e.count).sum();
        (f, m)
    }

    fn json(&self) -> String {
        let (findings, mismatches) = self.totals();
        let mut s = String::new();
        let _ = writeln!(s, "{{");
        let _ = writeln!(s, "  \"tool\": \"libmpi_info_hintcheck\",");
        let _ = writeln!(s, "  \"version\": {},", json_str(env!("CARGO_PKG_VERSION")));
        let _ = writeln!(s, "  \"implementation\": {},", json_str(&self.implementation));
        let _ = writeln!(s, "  \"target\": {},", json_str(&self.target.names));
        let _ = writeln!(s, "  \"rank\": {},", self.world_rank);
        let _ = writeln!(s, "  \"world_size\": {},", self.world_size);
        let _ = writeln!(s, "  \"finalized\": {},", self.finalized);
        let _ = writeln!(s, "  \"checked_calls\": {},", self.calls);
        let _ = writeln!(s, "  \"findings\": {findings},");
        let _ = writeln!(s, "  \"mismatches\": {mismatches},");
        s.push_str("  \"notes\": [");
        for (i, n) in self.notes.iter().enumerate() {
            let _ = write!(s, "{}{}", sep(i), json_str(n));
        }
        s.push_str("],\n  \"calls\": [");
        for (i, e) in self.entries.iter().enumerate() {
            let _ =
                write!(s, "{}\n    {{\"count\": {}, {}, {}}}", if i > 0 { "," } else { "" }, e.count, e.head, e.body);
        }
        s.push_str(if self.entries.is_empty() { "]\n}\n" } else { "\n  ]\n}\n" });
        s
    }

    /// Rewrites the JSON file whole, through a temporary file renamed over it, so that it is
    /// complete and valid at every moment.
    fn write_json(&mut self) {
        let Some(path) = self.json_path.clone() else { return };
        let tmp = format!("{path}.tmp.{}", std::process::id());
        let text = self.json();
        let result = std::fs::write(&tmp, text.as_bytes()).and_then(|_| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            // Said once, then the file is given up.
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "mpi-info hintcheck: rank {}: cannot write the report {path}: {e}", self.world_rank);
            self.json_path = None;
        }
    }
}

/// This process's totals, for the reduction at `MPI_Finalize`: checked calls, diagnostics,
/// disagreeing keys.
///
/// # Safety
/// `out` has room for 3 values.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_counts(out: *mut c_longlong) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if out.is_null() {
            return;
        }
        let (calls, f, m) = with_report(|r| {
            let (f, m) = r.totals();
            (r.calls, f, m)
        })
        .unwrap_or((0, 0, 0));
        // SAFETY: room for 3 values.
        unsafe {
            *out = calls as c_longlong;
            *out.add(1) = f as c_longlong;
            *out.add(2) = m as c_longlong;
        }
    }));
}

/// At `MPI_Finalize`: marks the report finished and writes it a last time. On rank 0 of
/// `MPI_COMM_WORLD`, `totals` holds its own checked calls, diagnostics and disagreeing keys, the
/// diagnostics of all processes and the most disagreeing keys any process saw (NULL elsewhere);
/// the summary is printed on standard error if anything was found anywhere or
/// `MPI_INFO_HINTCHECK_VERBOSE` is set.
///
/// # Safety
/// `totals` NULL or 5 values.
#[no_mangle]
pub unsafe extern "C" fn mpi_info_hintcheck_finalize(totals: *const c_longlong) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: NULL or 5 values.
        let totals =
            if totals.is_null() { None } else { Some(unsafe { std::slice::from_raw_parts(totals, 5) }.to_vec()) };
        with_report(|r| {
            r.finalized = true;
            r.write_json();
            let Some(t) = totals else { return };
            if !(r.verbose || t[1] > 0 || t[3] > 0 || t[4] > 0) {
                return;
            }
            let plural = |n: i64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
            let mut s = format!(
                "mpi-info hintcheck: {} checked call{} on rank 0, {} diagnostic{} ({} on all {} processes), {} hint{} on which processes disagreed",
                t[0],
                plural(t[0], "", "s"),
                t[1],
                plural(t[1], "", "s"),
                t[3],
                r.world_size,
                t[4],
                plural(t[4], "", "s")
            );
            match &r.json_path {
                Some(p) => {
                    let _ = write!(s, " (report: {p})");
                }
                None => s.push_str(" (MPI_INFO_HINTCHECK=<file> writes the report)"),
            }
            s.push('\n');
            let lines: Vec<&String> = r.entries.iter().flat_map(|e| e.lines.iter()).collect();
            const SHOWN: usize = 10;
            for l in lines.iter().take(SHOWN) {
                let _ = writeln!(s, "  {l}");
            }
            if lines.len() > SHOWN {
                let _ = writeln!(s, "  ... and {} more", lines.len() - SHOWN);
            }
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(s.as_bytes());
            let _ = err.flush();
        });
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs() {
        let p = pairs_of(b"a\0b\0cc\0\0");
        assert_eq!(p, vec![(&b"a"[..], &b"b"[..]), (&b"cc"[..], &b""[..])]);
    }

    #[test]
    fn statuses() {
        assert_eq!(status(Some(b"1"), Some(b"1"), false), "kept");
        assert_eq!(status(Some(b"1"), Some(b"2"), false), "changed");
        assert_eq!(status(Some(b"1"), None, false), "dropped");
        assert_eq!(status(None, Some(b"1"), false), "added");
        assert_eq!(status(Some(b"16M"), Some(b"16M"), true), "misread");
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
            with_report(|r| r.json_path = Some(path.to_string_lossy().into_owned()));
            assert_eq!(mpi_info_hintcheck_call_end(make(&file)), 2); // unit-suffix, unknown-key
            assert!(written());
            assert_eq!(mpi_info_hintcheck_call_end(make(&file)), 2); // merged
            assert!(!written(), "a merged call does not rewrite the report");
            assert_eq!(mpi_info_hintcheck_call_end(make(&other)), 2); // a new name, same check
            assert!(written());
            // Two processes that disagree on cb_nodes, one without striping_factr.
            let c = make(&file);
            let all = b"cb_nodes\x001\0striping_factr\x004\0cb_nodes\x002\0";
            let (ranks, lens) = ([0, 1], [28, 11]);
            assert_eq!(
                mpi_info_hintcheck_mismatch(c, 2, ranks.as_ptr(), lens.as_ptr(), all.as_ptr() as *const c_char, 0),
                2
            );
            assert!(written(), "a disagreement is written before the call");
            assert_eq!(mpi_info_hintcheck_call_end(c), 4);
            assert!(written());
            assert_eq!(mpi_info_hintcheck_call_end(std::ptr::null_mut()), 0);
        }
        let text = with_report(|r| {
            assert_eq!(r.calls, 4);
            assert_eq!(r.entries.iter().map(|e| e.count).collect::<Vec<_>>(), [2, 1, 1]);
            assert_eq!(r.entries[0].body, r.entries[1].body);
            r.json()
        })
        .unwrap();
        assert!(
            text.contains(r#"{"key": "cb_buffer_size", "requested": "16M", "effective": "16M", "status": "misread"}"#),
            "{text}"
        );
        assert!(text.contains(r#"{"key": "striping_factr", "requested": "4", "effective": null, "status": "dropped"}"#));
        assert!(text.contains(r#"{"key": "cb_nodes", "requested": "1", "effective": "2", "status": "changed"}"#));
        assert!(text
            .contains(r#"{"key": "romio_cb_read", "requested": null, "effective": "automatic", "status": "added"}"#));
        assert!(text.contains(
            r#"{"key": "cb_nodes", "values": [{"value": "1", "ranks": [0]}, {"value": "2", "ranks": [1]}]}"#
        ));
        assert!(text.contains(
            r#"{"key": "striping_factr", "values": [{"value": "4", "ranks": [0]}, {"value": null, "ranks": [1]}]}"#
        ));
        assert!(text.contains(r#""code": "unknown-key""#) && text.contains(r#""suggestion": "striping_factor""#));
        assert!(text.contains(r#""findings": 8"#) && text.contains(r#""mismatches": 2"#), "{text}");
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_str("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"");
    }
}
