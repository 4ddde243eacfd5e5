//! hints-proof: the model's side of the proof of the hint vocabulary against the implementations
//! installed (tests-proof/run.py runs it, then the real jobs, and compares; docs/hints.md, "Proof
//! against the real implementations").
//!
//!     hints-proof TARGET@RELEASE [--under CONDITION]... [--plain] [--procs N] --object OBJECT=PROBE...
//!
//! For each key of `data/hints.json` with a reader of TARGET that holds at RELEASE, for a kind of
//! object the job makes (`--object file=file`: the entry's `file` objects are made by the probe's
//! `file`), under the conditions of the job (`--under "ch4 device"`: a reader with that
//! `only_under`; `--plain`: readers without one), it writes the cases to run as the array
//! `cases` of one JSON object on standard output: each the key, a value (valid values,
//! sentinels, a wrong case, a unit suffix, a negative number, a prefix of a valid word, ...),
//! and for each reader
//! what its parser reads the value as (`Reader::read`) and what the job must then show: the
//! call's success or failure, what `*_get_info` reports according to the reader's `reports`
//! (with the release's own post-processing, `post_process`), and effects the job can observe.
//! A check that follows from the reading "proves"; a reader whose report cannot tell its
//! reading apart from the text as given, and shows no effect, is unprovable here, with its
//! source. `elsewhere` names the keys the target reads at the release only under conditions
//! that do not hold in the job, with the conditions.
//!
//! Exit status: 0, or 2 for a usage error (said on standard error).

use std::process::ExitCode;

use mpi_info::hints::{Entry, Escaped, Invalid, Kind, Parser, Reader, Reading, Targets, Vocabulary};
use serde_json::{json, Value};

/// The vocabulary proved: the document itself, with its readers' prose.
const DOCUMENT: &[u8] = include_bytes!("../../data/hints.json");

const USAGE: &str =
    "usage: hints-proof TARGET@RELEASE [--under CONDITION]... [--plain] [--procs N] --object OBJECT=PROBE...";

/// What one job makes and under which conditions it runs.
struct Setup {
    target: String,
    releases: u64,
    /// The `only_under` conditions that hold in the job.
    under: Vec<String>,
    /// Readers without `only_under` are proved in this job too.
    plain: bool,
    /// The vocabulary's object kinds the job makes, each with the probe's object that makes it.
    objects: Vec<(String, String)>,
    /// The processes of the job.
    procs: i128,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}\n\nWrites the proof cases of the readers of TARGET at RELEASE as JSON (tests-proof/run.py).");
        return ExitCode::SUCCESS;
    }
    let vocabulary = match Vocabulary::from_json(DOCUMENT, None) {
        Ok(vocabulary) => vocabulary,
        Err(error) => {
            eprintln!("hints-proof: data/hints.json: {error}");
            return ExitCode::from(2);
        }
    };
    let setup = match parse_args(&vocabulary, &args) {
        Ok(setup) => setup,
        Err(message) => {
            eprintln!("hints-proof: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let cases = cases(&vocabulary, &setup);
    println!("{}", json!({"cases": cases, "elsewhere": elsewhere(&vocabulary, &setup)}));
    ExitCode::SUCCESS
}

fn parse_args(vocabulary: &Vocabulary, args: &[String]) -> Result<Setup, String> {
    let mut args = args.iter();
    let named = args.next().ok_or("no TARGET@RELEASE")?;
    let shown = Escaped(named.as_bytes());
    let Some((target, _)) = named.split_once('@') else { return Err(format!("'{shown}': no @RELEASE")) };
    let targets = Targets::parse(vocabulary, Some(named)).map_err(|e| format!("'{shown}': {e}"))?;
    if !targets.notes.is_empty() {
        return Err(format!("'{shown}': {}", Escaped(targets.notes.join(" ").as_bytes())));
    }
    let mut setup = Setup {
        target: target.to_string(),
        releases: targets.releases(vocabulary, target),
        under: Vec::new(),
        plain: false,
        objects: Vec::new(),
        procs: 1,
    };
    if setup.releases.count_ones() != 1 {
        return Err(format!("'{shown}' is not one release"));
    }
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{} needs a value", Escaped(arg.as_bytes())));
        match arg.as_str() {
            "--under" => setup.under.push(value()?.clone()),
            "--plain" => setup.plain = true,
            "--procs" => setup.procs = value()?.parse().map_err(|_| "--procs takes a number".to_string())?,
            "--object" => {
                let pair = value()?;
                let (object, probe) =
                    pair.split_once('=').ok_or(format!("--object {}: not OBJECT=PROBE", Escaped(pair.as_bytes())))?;
                setup.objects.push((object.to_string(), probe.to_string()));
            }
            other => return Err(format!("unknown argument '{}'", Escaped(other.as_bytes()))),
        }
    }
    if setup.objects.is_empty() {
        return Err("no --object".into());
    }
    Ok(setup)
}

/// The readers of `entry` that hold in the setup.
fn holding<'v>(vocabulary: &'v Vocabulary, setup: &Setup, entry: &'v Entry) -> Vec<&'v Reader> {
    vocabulary
        .readers(entry)
        .filter(|r| r.target == setup.target && r.releases & setup.releases != 0)
        .filter(|r| match &r.only_under {
            Some(condition) => setup.under.contains(condition),
            None => setup.plain,
        })
        .collect()
}

fn cases(vocabulary: &Vocabulary, setup: &Setup) -> Vec<Value> {
    let mut out = Vec::new();
    for entry in vocabulary.entries() {
        let readers = holding(vocabulary, setup, entry);
        if readers.is_empty() {
            continue;
        }
        let Some((object, probe)) = entry.objects.iter().find_map(|o| setup.objects.iter().find(|(kind, _)| kind == o))
        else {
            continue;
        };
        let probe = made_by(&setup.target, &entry.key).filter(|_| object == "communicator").unwrap_or(probe);
        for (value, class) in values(entry, &readers) {
            let models: Vec<Value> = readers.iter().map(|r| model(setup, probe, entry, r, &value)).collect();
            out.push(json!({
                "key": entry.key,
                "value": value,
                "class": class,
                "object": object,
                "probe": probe,
                "with": context(&setup.target, &entry.key),
                "readers": models,
            }));
        }
    }
    out
}

/// The keys read by the target at the release only under conditions that do not hold in the
/// job (another device, file system or build), each with those conditions.
fn elsewhere(vocabulary: &Vocabulary, setup: &Setup) -> Value {
    let mut out = serde_json::Map::new();
    for entry in vocabulary.entries() {
        let at_release: Vec<&Reader> = vocabulary
            .readers(entry)
            .filter(|r| r.target == setup.target && r.releases & setup.releases != 0)
            .collect();
        if at_release.is_empty() || !holding(vocabulary, setup, entry).is_empty() {
            continue;
        }
        let conditions: Vec<&str> =
            at_release.iter().map(|r| r.only_under.as_deref().unwrap_or("another job")).collect();
        out.insert(entry.key.clone(), json!(conditions));
    }
    Value::Object(out)
}

// ------------------------------------------------------------------------ the values tried

/// The values tried for a key: its valid values (the entry's values and default, each reader's
/// words, default and range), its readers' sentinels, then the wrong ones: another case of
/// each word, a unit suffix, a negative number, a prefix of each word and the word with more
/// after it, a word for a number. Each once, with the class it was made for first.
fn values(entry: &Entry, readers: &[&Reader]) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let mut add = |value: &str, class: &'static str| {
        if !value.is_empty() && !out.iter().any(|(v, _)| v == value) {
            out.push((value.to_string(), class));
        }
    };
    // The words of the key: its values and default, its readers' words and defaults.
    let mut words: Vec<String> = Vec::new();
    // The words whose wrong spellings are tried: all but the fourth and later of a reader's
    // long lists of words.
    let mut spelled: Vec<String> = Vec::new();
    let numeric = matches!(entry.kind, Kind::Int | Kind::Size);
    let listed = matches!(entry.kind, Kind::List);
    for word in entry.values.iter().chain(&entry.default) {
        words.push(word.clone());
        spelled.push(word.clone());
    }
    for reader in readers {
        words.extend(reader.accepts.iter().cloned());
        spelled.extend(reader.accepts.iter().take(3).cloned());
        spelled.extend(reader.true_words.iter().chain(&reader.false_words).cloned());
        words.extend(reader.default.iter().cloned());
        spelled.extend(reader.default.iter().cloned());
        // A list's first three element words, and those that stand alone.
        if let Some(elements) = &reader.elements {
            words.extend(elements.accepts.iter().take(3).cloned());
            words.extend(elements.exclusive.iter().cloned());
            spelled.extend(elements.accepts.iter().take(3).cloned());
            spelled.extend(elements.exclusive.iter().cloned());
        }
    }
    if entry.kind == Kind::Bool {
        spelled.extend(["true".to_string(), "false".to_string()]);
    }
    let is_word = |w: &str| w.bytes().any(|b| b.is_ascii_alphabetic()) && !w.contains(',');
    for word in &words {
        add(word, "valid");
    }
    match entry.kind {
        Kind::Bool => {
            for value in ["true", "false", "1", "0", "2"] {
                add(value, "valid");
            }
        }
        Kind::Int | Kind::Size => {
            for min in readers.iter().filter_map(|reader| reader.min) {
                add(&min.to_string(), "valid");
            }
            let typical = if matches!(entry.kind, Kind::Int) { ["1", "2"] } else { ["4096", "1048576"] };
            for value in typical {
                add(value, "valid");
            }
        }
        Kind::NodeList => {
            for value in ["*:1", "*:*", "*:2", "*"] {
                add(value, "valid");
            }
        }
        Kind::List => {
            // Two elements of the list, in reverse order.
            let elements: Vec<&String> = readers
                .iter()
                .filter_map(|r| r.elements.as_ref())
                .flat_map(|e| e.accepts.iter())
                .filter(|w| !w.contains(','))
                .collect();
            if elements.len() >= 2 {
                add(&format!("{},{}", elements[1], elements[0]), "valid");
            }
        }
        Kind::Text | Kind::Enum | Kind::Tuple => {}
    }
    if matches!(entry.kind, Kind::Text) {
        add("xyz", "valid");
    }
    for reader in readers {
        for sentinel in &reader.sentinels {
            add(&sentinel.value, "sentinel");
        }
    }
    for word in spelled.iter().filter(|w| is_word(w)) {
        add(&capitalised(word), "wrong case");
        add(&word.to_ascii_uppercase(), "wrong case");
    }
    if entry.kind == Kind::Bool {
        add("True", "wrong case");
        add("TRUE", "wrong case");
        add("yes", "wrong case");
    }
    if numeric {
        add("0", "zero");
        add(if entry.kind == Kind::Size { "1m" } else { "1k" }, "unit suffix");
        add("-7", "negative");
        add("abc", "not a number");
    }
    if entry.kind == Kind::NodeList {
        add("*:-1", "negative");
        add("*x:1", "malformed");
    }
    if entry.kind == Kind::Bool {
        add("-1", "negative");
    }
    for word in spelled.iter().filter(|w| is_word(w) && w.len() >= 3) {
        let last = word.char_indices().last().map_or(0, |(at, _)| at);
        add(&word[..last], "prefix");
        add(&format!("{word}ly"), "longer");
    }
    if listed {
        let exclusive = readers.iter().filter_map(|r| r.elements.as_ref()).flat_map(|e| e.exclusive.iter()).next();
        let element = readers.iter().filter_map(|r| r.elements.as_ref()).flat_map(|e| e.accepts.iter()).next();
        if let (Some(exclusive), Some(element)) = (exclusive, element) {
            add(&format!("{exclusive},{element}"), "malformed");
        }
        if let Some(element) = element {
            add(&format!("{element},,{element}"), "malformed");
            add(&format!(" {element}"), "malformed");
        }
        add(",", "malformed");
    }
    out
}

/// The word with the case of its first letter changed (`Enable`, `eNABLE`).
fn capitalised(word: &str) -> String {
    let mut bytes = word.as_bytes().to_vec();
    if let Some(b) = bytes.iter_mut().find(|b| b.is_ascii_alphabetic()) {
        *b = if b.is_ascii_uppercase() { b.to_ascii_lowercase() } else { b.to_ascii_uppercase() };
    }
    String::from_utf8(bytes).unwrap_or_default()
}

// ------------------------------------------------------------------------ the model

/// What one check expects: `what` is `rc` ("ok", "fails"), `report` or `after` (a text, null
/// for not reported), `lock` ("allowed", "refused"), `offset` ("contiguous", "noncontiguous"),
/// `message` ("individual", "collective"), `split` (a size); `equals` {"baseline": true} is what
/// the object reports or shows without the key. A check that "proves" follows from the reading;
/// an "optional" one proves when it holds and tells nothing when it does not.
fn check(what: &str, equals: Value, proves: bool) -> Value {
    json!({"what": what, "equals": equals, "proves": proves})
}

/// What the report shows, as the model predicts it.
enum Report {
    /// This text (None: the key is not reported).
    Text(Option<String>),
    /// What the object reports without the key (a value it cannot read is ignored).
    Baseline,
    /// The implementation's own value, whatever is given: what it reports without the key.
    Own,
    /// Nothing the model can tell (said why).
    Unknown(&'static str),
}

fn model(setup: &Setup, probe: &str, entry: &Entry, reader: &Reader, value: &str) -> Value {
    let parsed = reader.parse(entry, value.as_bytes());
    let taken = reader.read(entry, value.as_bytes());
    let not_read = matches!(taken, Reading::Invalid | Reading::BadElement { .. } | Reading::NotAlone { .. });
    let out_of_range = match taken {
        Reading::Number(n) => {
            reader.min.is_some_and(|min| n < i128::from(min)) || reader.max.is_some_and(|max| n > i128::from(max))
        }
        _ => false,
    };
    let mut checks = Vec::new();
    let mut unprovable: Option<String> = None;
    if not_read && reader.invalid == Some(Invalid::Error) {
        checks.push(check("rc", json!("fails"), true));
    } else if out_of_range {
        // The checker reports it out of range (an error); what the implementation then does is
        // not said: a call that fails (or a job that dies) proves it, one that works tells
        // nothing.
        let mut fails = check("rc", json!("fails"), true);
        fails["optional"] = json!(true);
        checks.push(fails);
        unprovable = Some("out of its range and taken without an error: what it becomes is not said".into());
    } else {
        checks.push(check("rc", json!("ok"), false));
        let stages: &[&str] =
            if setup.objects.iter().any(|(_, p)| p == "nc") { &["report", "after"] } else { &["report"] };
        for stage in stages {
            let (report, proves) = predict_report(setup, entry, reader, value, taken, not_read, stage);
            match report {
                Report::Text(text) => checks.push(check(stage, json!(text), proves)),
                Report::Baseline => checks.push(check(stage, json!({"baseline": true}), proves)),
                Report::Own => {
                    checks.push(check(stage, json!({"baseline": true}), false));
                    unprovable.get_or_insert_with(|| "it reports a value of its own, whatever is given".into());
                }
                Report::Unknown(why) => {
                    unprovable.get_or_insert_with(|| why.to_string());
                }
            }
        }
        let stays = match reader.invalid {
            Some(Invalid::Ignored) => true,
            Some(Invalid::Default) => reader.default.is_none(),
            _ => false,
        };
        if not_read && stays {
            // Ignored: the object is as it is without the key.
            for what in observables(probe) {
                checks.push(check(what, json!({"baseline": true}), true));
            }
        }
        for (what, equals) in effects(entry, reader, probe, taken) {
            checks.push(check(what, json!(equals), true));
        }
    }
    // A case that may fail runs in a job of its own (a failed call can leave the library in a
    // state that would spoil the cases after it, and a job that dies takes only it along).
    let alone = checks.iter().any(|c| c["what"] == "rc" && c["equals"] == "fails");
    if !checks.iter().any(|c| c["proves"] == json!(true)) && unprovable.is_none() {
        unprovable = Some(match reader.reports.as_deref() {
            Some("given") => "reported as given, with no effect to observe here".into(),
            Some("not") => "not reported, with no effect to observe here".into(),
            _ => "its report is not described".into(),
        });
    }
    json!({
        "source": reader.source,
        "version": reader.version,
        "parser": reader.parser.as_str(),
        "only_under": reader.only_under,
        "reports": reader.reports,
        "reading": describe(reader, parsed),
        "taken": describe(reader, taken),
        "checks": checks,
        "unprovable": unprovable,
        "alone": alone,
    })
}

/// A reading in words.
fn describe(reader: &Reader, reading: Reading) -> String {
    match reading {
        Reading::Number(n) => n.to_string(),
        Reading::Bool(b) => b.to_string(),
        Reading::Word(n) => format!("'{}'", reader.accepts[n]),
        Reading::Sentinel(n) => format!("sentinel '{}' ({})", reader.sentinels[n].value, reader.sentinels[n].means),
        Reading::Text => "text".into(),
        Reading::List => "a list".into(),
        Reading::BadElement { start, end } => format!("a bad element at {start}..{end}"),
        Reading::NotAlone { .. } => "an element that stands alone, with others".into(),
        Reading::Invalid => "not read".into(),
    }
}

/// The reading in the reader's own words: a number in decimal, a boolean as true or false, a
/// word or sentinel as the reader spells it, anything else as given.
fn spelled(reader: &Reader, value: &str, reading: Reading) -> String {
    match reading {
        Reading::Number(n) => n.to_string(),
        Reading::Bool(b) => b.to_string(),
        Reading::Word(n) => reader.accepts[n].clone(),
        Reading::Sentinel(n) => reader.sentinels[n].value.clone(),
        _ => value.to_string(),
    }
}

/// What `*_get_info` reports after the value was given, as the reader's `reports` says, with
/// the release's post-processing; and whether that follows from the reading (it proves).
fn predict_report(
    setup: &Setup,
    entry: &Entry,
    reader: &Reader,
    value: &str,
    taken: Reading,
    not_read: bool,
    stage: &str,
) -> (Report, bool) {
    let report = match reader.reports.as_deref() {
        Some("given") => return (Report::Text(Some(value.to_string())), false),
        Some("not") => return (Report::Text(None), false),
        Some("read") if not_read => match (reader.invalid, &reader.default) {
            (Some(Invalid::Default), Some(default)) => Report::Text(Some(default.clone())),
            (Some(Invalid::Ignored | Invalid::Default), _) => Report::Baseline,
            _ => Report::Unknown("a value it cannot read: what is reported is not said"),
        },
        Some("read") => Report::Text(Some(spelled(reader, value, taken))),
        Some("default-when-invalid") if not_read => match (reader.invalid, &reader.default) {
            (Some(Invalid::Default), Some(default)) => Report::Text(Some(default.clone())),
            _ => Report::Baseline,
        },
        Some("default-when-invalid") => Report::Text(Some(value.to_string())),
        _ => return (Report::Unknown("its report is not described"), false),
    };
    post_process(setup, entry, reader, value, taken, stage, report)
}

/// The release's own post-processing of what it reports, where that is not the reading in the
/// reader's words: each as the reader's `reports_how` says, for the readers of the releases
/// installed here. Returns the report and whether it follows from the reading (it proves).
fn post_process(
    setup: &Setup,
    entry: &Entry,
    reader: &Reader,
    value: &str,
    taken: Reading,
    stage: &str,
    report: Report,
) -> (Report, bool) {
    let key = entry.key.as_str();
    let word = |n: usize| reader.accepts[n].as_str();
    let text = |t: &str| (Report::Text(Some(t.to_string())), true);
    match (setup.target.as_str(), key, taken) {
        // ROMIO: "requested/REQUESTED as enable" (ADIOI_Info_check_and_install_enabled).
        ("mpich", _, Reading::Word(n))
            if reader.parser == Parser::RomioEnabled && word(n).eq_ignore_ascii_case("requested") =>
        {
            text("enable")
        }
        // "otherwise the post-processing writes 'false' (ad_hints.c:312), so FALSE is reported as 'false'".
        ("mpich", "romio_no_indep_rw", Reading::Bool(false)) => text("false"),
        // The implementation's own value, whatever is given ("always 'aar'", "the driver's name",
        // "the aggregator ranks"): the report is the one without the key.
        ("mpich", "romio_cb_fr_types" | "romio_filesystem_type" | "romio_aggregator_list", _) => (Report::Own, false),
        // "under ch4:ucx and ch3 an unset value stays -1 and is reported as 'true'".
        ("mpich", "enable_multi_nic_striping" | "enable_multi_nic_hashing", Reading::Sentinel(_)) => text("true"),
        // "the value modulo the number of VCIs (so with one VCI every value reads back as 0)".
        ("mpich", "sender_vci" | "receiver_vci" | "vci", _) => {
            (Report::Unknown("reported modulo the number of VCIs, one here: every value reads back as 0"), false)
        }
        // "lists 'unlimited' for -1".
        ("mpich", "accumulate_max_bytes", Reading::Sentinel(_)) => text("unlimited"),
        // "the number of aggregators finally chosen": with cb_config_list=*:* (`context`), at
        // most one per process.
        ("mpich", "cb_nodes", Reading::Number(n)) => text(&n.min(setup.procs).to_string()),
        // "the stored set as a comma list in the order rar,raw,war,waw, or 'none'".
        ("mpich", "accumulate_ordering", Reading::List) => match reader.elements.as_ref() {
            Some(elements) if elements.exclusive.iter().any(|w| w == value) => text(value),
            Some(elements) => set_of(elements, value, &[], |_| None).map_or((Report::Baseline, true), |set| text(&set)),
            None => (report, true),
        },
        // "the stored set as a comma list of short names in op-index order (cswap first), 'none'
        // when empty; an unset key lists every op".
        ("mpich", "which_accumulate_ops", Reading::Word(n)) if word(n) == "any_op" => (Report::Baseline, true),
        ("mpich", "which_accumulate_ops", Reading::List) => match reader.elements.as_ref() {
            Some(elements) => {
                let swap = |piece: &str| {
                    (piece.starts_with("cswap") || piece.starts_with("compare_and_swap")).then_some("cswap")
                };
                set_of(elements, value, &["cswap"], swap).map_or((Report::Baseline, true), |set| text(&set))
            }
            None => (report, true),
        },
        // "'lat', 'mr' or 'lat,mr'; when ... no element was recognised ... an uninitialised stack
        // buffer is reported".
        ("mpich", "perf_preference", Reading::List) => match reader.elements.as_ref() {
            Some(elements) => set_of(elements, value, &[], |_| None).map_or(
                (Report::Unknown("no element recognised: an uninitialised buffer is reported"), false),
                |set| text(&set),
            ),
            None => (report, true),
        },
        ("mpich", "perf_preference", _) => {
            (Report::Unknown("no element recognised: an uninitialised buffer is reported"), false)
        }
        // PnetCDF 1.12.x, after ncmpi_enddef: "the alignment in use rounded up to a multiple of
        // 4"; 0 (not set) is the default alignment, as reported without the key.
        ("pnetcdf", "nc_var_align_size" | "nc_header_align_size" | "nc_record_align_size", reading)
            if stage == "after" =>
        {
            match reading {
                Reading::Number(0) | Reading::Sentinel(_) => (Report::Baseline, true),
                Reading::Number(n) => text(&((n + 3) / 4 * 4).to_string()),
                _ => (report, true),
            }
        }
        _ => (report, true),
    }
}

/// The elements of a list value as the reader's element words, in the order of `first` then
/// of the element words, each once, joined with commas (None when there is none): MPICH lists a
/// stored set in its own order. `alias` names the word an element stands for, where the element
/// parser does not.
fn set_of(
    elements: &mpi_info::hints::Elements,
    value: &str,
    first: &[&str],
    alias: impl Fn(&str) -> Option<&'static str>,
) -> Option<String> {
    let grammar = mpi_info::hints::parsers::Grammar {
        parser: elements.parser,
        accepts: &elements.accepts,
        whole: true,
        boolean: false,
        elements: None,
    };
    let mut found: Vec<&str> = Vec::new();
    for piece in value.split(',').filter(|p| !p.is_empty()) {
        let word = match alias(piece) {
            Some(word) => Some(word),
            None => match mpi_info::hints::parsers::read(&grammar, piece.as_bytes()) {
                Reading::Word(n) => Some(elements.accepts[n].as_str()),
                _ => None,
            },
        };
        found.extend(word);
    }
    let order = first.iter().copied().chain(elements.accepts.iter().map(String::as_str));
    let mut out: Vec<&str> = Vec::new();
    for word in order {
        if found.contains(&word) && !out.contains(&word) {
            out.push(word);
        }
    }
    (!out.is_empty()).then(|| out.join(","))
}

/// What a job can observe of a probe's object besides its report: `lock` (a window's
/// MPI_Win_lock), `offset` (the segments of a shared window), `split` (the size of the
/// communicator MPI_Comm_split_type made).
fn observables(probe: &str) -> &'static [&'static str] {
    match probe {
        "window" => &["lock"],
        "shared" => &["offset"],
        p if p.starts_with("split-") => &["split"],
        _ => &[],
    }
}

/// Effects a job can observe of what a reader read, besides the report: a boolean's effect on
/// the behaviour it switches (on: read as true, unless the reader takes it inverted).
fn effects(entry: &Entry, reader: &Reader, probe: &str, taken: Reading) -> Vec<(&'static str, &'static str)> {
    let on = match taken {
        Reading::Bool(b) => b != reader.inverted,
        _ => return Vec::new(),
    };
    match (entry.key.as_str(), probe) {
        // MPI_Win_lock on a window whose processes promised not to lock fails (Open MPI:
        // MPI_ERR_RMA_SYNC); a reader that nothing uses changes nothing.
        ("no_locks", "window") if reader.unread => vec![("lock", "allowed")],
        ("no_locks", "window") => vec![("lock", if on { "refused" } else { "allowed" })],
        // Each process's segment starts on a page of its own.
        ("alloc_shared_noncontig", "shared") if !reader.unread => {
            vec![("offset", if on { "noncontiguous" } else { "contiguous" })]
        }
        // OMPIO, with io_ompio_verbose_info_parsing: "enforcing using individual fcoll
        // component" when collective buffering is off.
        ("collective_buffering", "file") if reader.target == "openmpi" => {
            vec![("message", if on { "collective" } else { "individual" })]
        }
        _ => Vec::new(),
    }
}

/// Hints set beside the key, for it to have an effect the job can see: ROMIO chooses at most
/// one aggregator per host unless cb_config_list says otherwise.
fn context(target: &str, key: &str) -> Vec<(String, String)> {
    match (target, key) {
        ("mpich", "cb_nodes") => vec![("cb_config_list".into(), "*:*".into())],
        _ => Vec::new(),
    }
}

/// The probe object of a communicator key that only MPI_Comm_split_type reads (its readers'
/// `how`): MPI_COMM_TYPE_HW_GUIDED or MPI_COMM_TYPE_SHARED. (MPICH's neighbourhood keys are
/// left to MPI_Comm_dup_with_info, which does not read them: MPIX_COMM_TYPE_NEIGHBORHOOD with
/// nbhd_common_dirname naming no directory leaves MPICH 4.0.2's processes hanging.)
fn made_by(target: &str, key: &str) -> Option<&'static str> {
    match (target, key) {
        ("mpich", "mpi_hw_resource_type") => Some("split-hw"),
        ("mpich", "shmem_topo") => Some("split-shared"),
        _ => None,
    }
}
