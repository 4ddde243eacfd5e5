//! The checker against a small vocabulary of the tests' own, where each rule is visible, and the
//! built-in vocabulary's own consistency.

use super::*;

const TEST_VOCABULARY: &str = r#"{
  "format": "mpi-info-hints", "version": 1,
  "targets": [
    {"name": "std", "title": "a standard", "read": "test"},
    {"name": "big", "title": "a permissive MPI", "read": "test", "key_max": 255, "value_max": 1024, "limits_source": "test"},
    {"name": "small", "title": "a strict MPI", "read": "test", "key_max": 20, "value_max": 24, "limits_source": "test"}
  ],
  "syntaxes": [{"name": "romio", "variable": "ROMIO_HINTS", "target": "big", "read_max": 4096, "how": "key value lines", "source": "test"}],
  "keys": [
    {"key": "buffer_size", "objects": ["file"], "type": "size", "min": 1, "max": 1073741824, "summary": "a size",
     "readers": [{"target": "std", "parse": "integer", "min": 1, "max": 1073741824, "source": "s"},
                 {"target": "big", "parse": "atoi", "min": 1, "source": "b"},
                 {"target": "small", "parse": "size-suffix", "suffixes": ["k", "m"], "case": "any", "max": 1073741824, "source": "m"}]},
    {"key": "collective", "objects": ["file"], "type": "enum", "values": ["enable", "disable"], "summary": "an enum",
     "readers": [{"target": "big", "parse": "words", "accepts": ["enable", "ENABLE", "disable", "DISABLE"], "otherwise": "ignored", "source": "b"},
                 {"target": "small", "parse": "words", "accepts": ["enable", "disable"], "case": "any", "source": "m"}]},
    {"key": "strict_flag", "objects": ["communicator"], "type": "bool", "summary": "a boolean",
     "readers": [{"target": "big", "parse": "words", "accepts": ["true", "false"], "otherwise": "read with atoi", "source": "b"}]},
    {"key": "node_list", "objects": ["file"], "type": "nodelist", "summary": "nodes",
     "readers": [{"target": "big", "parse": "nodelist", "source": "b"}]},
    {"key": "access", "objects": ["file"], "type": "list", "summary": "a list",
     "readers": [{"target": "std", "parse": "list", "accepts": ["read_once", "write_once"], "source": "s"}]},
    {"key": "stripe_unit", "objects": ["file"], "type": "size", "summary": "canonical",
     "readers": [{"target": "big", "parse": "atoi", "source": "b"}]},
    {"key": "stripe_size", "objects": ["file"], "type": "size", "alias_of": "stripe_unit", "summary": "alias",
     "readers": [{"target": "small", "parse": "atoi", "source": "m"}]},
    {"key": "write_mode", "objects": ["file"], "type": "enum", "values": ["on", "off"], "summary": "mode",
     "readers": [{"target": "big", "parse": "words", "accepts": ["on", "off"], "source": "b"}]},
    {"key": "write_nodes", "objects": ["file"], "type": "int", "summary": "nodes",
     "readers": [{"target": "big", "parse": "atoi", "source": "b"}]},
    {"key": "a_rather_long_hint_name_for_tests", "objects": ["file"], "type": "string", "summary": "long",
     "readers": [{"target": "big", "parse": "string", "source": "b"}, {"target": "small", "parse": "string", "source": "m"}]}
  ],
  "conflicts": [
    {"targets": ["big"], "when": [{"key": "write_mode", "values": ["off"]}, {"key": "write_nodes"}],
     "message": "write_nodes is not used when write_mode is off", "source": "b"}
  ]
}"#;

fn vocabulary() -> Vocabulary {
    Vocabulary::from_json(TEST_VOCABULARY.as_bytes(), None).unwrap()
}

/// The findings for `pairs` with `targets`, as (key, code, suggestion).
fn findings(targets: Option<&str>, pairs: &[(&str, &str)]) -> Vec<(String, Code, Option<String>)> {
    detailed(targets, pairs).into_iter().map(|f| (f.key, f.code, f.suggestion)).collect()
}

fn detailed(targets: Option<&str>, pairs: &[(&str, &str)]) -> Vec<Finding> {
    let vocabulary = vocabulary();
    let targets = Targets::parse(&vocabulary, targets).unwrap();
    let pairs: Vec<(&[u8], &[u8])> = pairs.iter().map(|(k, v)| (k.as_bytes(), v.as_bytes())).collect();
    check(&vocabulary, &targets, &pairs).unwrap()
}

fn one(code: Code, key: &str, suggestion: Option<&str>) -> Vec<(String, Code, Option<String>)> {
    vec![(key.to_string(), code, suggestion.map(str::to_string))]
}

#[test]
fn values_read_as_meant_give_no_finding() {
    let pairs = [
        ("buffer_size", "1048576"),
        ("collective", "enable"),
        ("strict_flag", "true"),
        ("node_list", "host1:2,*:1,*:*"),
        ("access", "read_once,write_once"),
        ("stripe_unit", "4096"),
        ("write_mode", "on"),
        ("write_nodes", "4"),
    ];
    assert_eq!(findings(None, &pairs), vec![]);
}

#[test]
fn unknown_keys_name_the_nearest_known_ones() {
    assert_eq!(findings(None, &[("bufer_size", "4")]), one(Code::UnknownKey, "bufer_size", Some("buffer_size")));
    assert_eq!(findings(None, &[("BUFFER_SIZE", "4")]), one(Code::UnknownKey, "BUFFER_SIZE", Some("buffer_size")));
    let far = detailed(None, &[("completely_different", "4")]);
    assert_eq!(far[0].code, Code::UnknownKey);
    assert_eq!(far[0].suggestion, None);
    assert_eq!(far[0].message, "unknown hint 'completely_different': no vocabulary has it");
    let two = detailed(None, &[("write_nodez", "1")]);
    assert_eq!(two[0].message, "unknown hint 'write_nodez'; did you mean 'write_nodes' or 'write_mode'?");
    assert_eq!(two[0].suggestion.as_deref(), Some("write_nodes"));
}

#[test]
fn a_suffix_dropped_by_atoi_is_reported_with_what_is_used() {
    let found = detailed(Some("big"), &[("buffer_size", "16M")]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, Code::UnitSuffix);
    assert_eq!(found[0].message, "for big: '16M' is read as 16: the 'M' is dropped; 16M is 16777216");
    assert_eq!(found[0].suggestion.as_deref(), Some("16777216"));
    // A strict reader does not use it at all; a reader of suffixes takes it.
    let strict = detailed(Some("std"), &[("buffer_size", "16M")]);
    assert_eq!(strict[0].code, Code::UnitSuffix);
    assert!(
        strict[0].message.starts_with("for std: '16M' is not read: it takes a plain integer"),
        "{}",
        strict[0].message
    );
    assert_eq!(findings(Some("small"), &[("buffer_size", "16M")]), vec![]);
    assert_eq!(findings(Some("small"), &[("buffer_size", "16MB")]), one(Code::BadValue, "buffer_size", None));
    // Other trailing text is a bad value, with the number that is used.
    assert_eq!(findings(Some("big"), &[("buffer_size", "1.5")]), one(Code::BadValue, "buffer_size", Some("1")));
    assert_eq!(findings(Some("big"), &[("buffer_size", "lots")]), one(Code::BadValue, "buffer_size", None));
}

#[test]
fn readers_with_one_verdict_share_a_finding() {
    let found = detailed(Some("big,std"), &[("stripe_unit", "1k"), ("buffer_size", "2k")]);
    let codes: Vec<Code> = found.iter().map(|f| f.code).collect();
    assert_eq!(codes, [Code::UnitSuffix, Code::UnitSuffix, Code::UnitSuffix]);
    assert!(found[1].message.starts_with("for std: "), "{}", found[1].message);
    assert!(found[2].message.starts_with("for big: "), "{}", found[2].message);
}

#[test]
fn spellings_are_checked_as_each_target_compares_them() {
    assert_eq!(findings(Some("big"), &[("collective", "ENABLE")]), vec![]);
    let found = detailed(Some("big"), &[("collective", "Enable")]);
    assert_eq!(found[0].code, Code::BadValue);
    assert_eq!(found[0].suggestion.as_deref(), Some("enable"));
    assert_eq!(
        found[0].message,
        "for big: 'Enable' is not one of enable, ENABLE, disable, DISABLE (spelled exactly); otherwise it is ignored"
    );
    assert_eq!(findings(Some("small"), &[("collective", "Enable")]), vec![]);
    assert_eq!(findings(Some("big"), &[("strict_flag", "TRUE")]), one(Code::BadValue, "strict_flag", Some("true")));
    assert_eq!(findings(Some("big"), &[("collective", " enable")]), one(Code::BadValue, "collective", Some("enable")));
    assert_eq!(findings(Some("big"), &[("collective", "enabel")]), one(Code::BadValue, "collective", Some("enable")));
}

#[test]
fn lists_and_node_lists() {
    assert_eq!(findings(Some("std"), &[("access", "read_once,,write_once")]), one(Code::BadValue, "access", None));
    assert_eq!(findings(Some("std"), &[("access", "read_onse")]), one(Code::BadValue, "access", Some("read_once")));
    assert_eq!(findings(Some("std"), &[("access", "")]), vec![]);
    for bad in ["host 1:2", "host:x", ":2", "host:", "a,,b"] {
        assert_eq!(findings(Some("big"), &[("node_list", bad)]), one(Code::BadValue, "node_list", None), "{bad}");
    }
}

#[test]
fn ranges() {
    assert_eq!(findings(Some("std"), &[("buffer_size", "0")]), one(Code::OutOfRange, "buffer_size", None));
    assert_eq!(findings(Some("std"), &[("buffer_size", "2147483648")]), one(Code::OutOfRange, "buffer_size", None));
    assert_eq!(findings(Some("small"), &[("buffer_size", "2048m")]), one(Code::OutOfRange, "buffer_size", None));
    assert_eq!(findings(Some("big"), &[("buffer_size", "-3")]), one(Code::OutOfRange, "buffer_size", None));
}

#[test]
fn keys_no_named_target_reads() {
    let found = detailed(Some("small"), &[("write_mode", "on"), ("stripe_unit", "4096")]);
    assert_eq!(found[0].code, Code::NotReadByTarget);
    assert_eq!(found[0].message, "'write_mode' is not read by small; it is read by big");
    assert_eq!(found[0].suggestion, None);
    // ... unless a named target reads another spelling of it.
    assert_eq!(found[1].code, Code::NotReadByTarget);
    assert_eq!(found[1].suggestion.as_deref(), Some("stripe_size"));
    // A hint of another object.
    let vocabulary = vocabulary();
    let targets = Targets::parse(&vocabulary, None).unwrap();
    let window = check_object(&vocabulary, &targets, Some("window"), &[(b"strict_flag", b"true")]).unwrap();
    assert_eq!(window[0].code, Code::NotReadByTarget);
    assert_eq!(window[0].message, "'strict_flag' is a hint of communicator objects, not read for a window");
    assert!(check_object(&vocabulary, &targets, Some("communicator"), &[(b"strict_flag", b"true")])
        .unwrap()
        .is_empty());
}

#[test]
fn lengths_past_a_targets_limits() {
    let found = detailed(Some("small"), &[("a_rather_long_hint_name_for_tests", "x")]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, Code::TooLongForTarget);
    assert_eq!(
        found[0].message,
        "for small: a key has at most 20 characters, this one has 33; small's MPI_Info_set refuses it"
    );
    assert_eq!(findings(Some("big"), &[("a_rather_long_hint_name_for_tests", "x")]), vec![]);
    assert_eq!(findings(Some("small"), &[("buffer_size", "1234567890123456789012345")])[0].1, Code::TooLongForTarget);
    // Unknown keys are checked for length too.
    let unknown = findings(Some("small"), &[("an_unknown_key_of_some_length", "1")]);
    assert_eq!(unknown.iter().map(|f| f.1).collect::<Vec<_>>(), [Code::UnknownKey, Code::TooLongForTarget]);
}

#[test]
fn conflicts_documented_and_between_aliases() {
    let found = detailed(None, &[("write_mode", "off"), ("write_nodes", "2")]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, Code::Conflict);
    assert_eq!(found[0].key, "write_nodes");
    assert_eq!(found[0].message, "for big: write_nodes is not used when write_mode is off");
    assert_eq!(findings(None, &[("write_mode", "on"), ("write_nodes", "2")]), vec![]);
    assert_eq!(findings(Some("std"), &[("write_mode", "off"), ("write_nodes", "2")])[0].1, Code::NotReadByTarget);
    let alias = detailed(None, &[("stripe_unit", "4096"), ("stripe_size", "8192")]);
    assert_eq!(alias[0].code, Code::Conflict);
    assert_eq!(alias[0].key, "stripe_size");
    assert_eq!(findings(None, &[("stripe_unit", "4096"), ("stripe_size", " 4096")]), vec![]);
}

#[test]
fn targets_are_checked_names() {
    let vocabulary = vocabulary();
    assert!(Targets::parse(&vocabulary, Some("big, small")).is_ok());
    for bad in ["", "big,", "big,,small"] {
        assert_eq!(Targets::parse(&vocabulary, Some(bad)), Err(TargetError::Empty), "{bad:?}");
    }
    // The unknown name is the error, whatever comes after it.
    assert_eq!(Targets::parse(&vocabulary, Some("big, nobody ,small")), Err(TargetError::Unknown("nobody".into())));
    assert_eq!(TargetError::Unknown("a\x1b".into()).to_string(), "no target is named 'a\\u{1b}'");
    let all = Targets::parse(&vocabulary, None).unwrap();
    assert_eq!(all.names(&vocabulary).collect::<Vec<_>>(), ["std", "big", "small"]);
}

#[test]
fn a_layered_vocabulary_adds_to_its_base() {
    let base: &'static Vocabulary = Box::leak(Box::new(vocabulary()));
    let own = br#"{"format": "mpi-info-hints", "version": 1,
      "targets": [{"name": "lib", "title": "a library", "read": "test"}],
      "keys": [{"key": "lib_cache", "objects": ["file"], "type": "bool", "summary": "x",
                "readers": [{"target": "lib", "parse": "words", "accepts": ["true", "false"], "source": "l"}]},
               {"key": "write_nodes", "objects": ["file"], "type": "int", "summary": "replaced",
                "readers": [{"target": "lib", "parse": "integer", "source": "l"}]}]}"#;
    let layered = Vocabulary::from_json(own, Some(base)).unwrap();
    assert_eq!(layered.targets().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["lib", "std", "big", "small"]);
    assert_eq!(layered.entry(b"write_nodes").unwrap().summary, "replaced");
    // Both vocabularies' readers of a key both describe apply.
    let write_nodes = layered.entry(b"write_nodes").unwrap();
    assert_eq!(layered.readers(write_nodes).map(|r| r.target.as_str()).collect::<Vec<_>>(), ["lib", "big"]);
    let big = Targets::parse(&layered, Some("big")).unwrap();
    assert_eq!(check(&layered, &big, &[(b"write_nodes", b"2k")]).unwrap()[0].code, Code::UnitSuffix);
    assert_eq!(layered.entry(b"buffer_size").unwrap().summary, "a size");
    assert_eq!(layered.entries().filter(|e| e.key == "write_nodes").count(), 1);
    let targets = Targets::parse(&layered, Some("lib,big")).unwrap();
    let found =
        check(&layered, &targets, &[(b"lib_cache", b"yes"), (b"buffer_size", b"1"), (b"lib_cahce", b"true")]).unwrap();
    assert_eq!(found.iter().map(|f| f.code).collect::<Vec<_>>(), [Code::BadValue, Code::UnknownKey]);
    assert_eq!(found[1].suggestion.as_deref(), Some("lib_cache"));
    // A base of a base is refused.
    let leaked: &'static Vocabulary = Box::leak(Box::new(layered));
    assert!(Vocabulary::from_json(own, Some(leaked)).is_err());
}

#[test]
fn bad_documents_say_what_is_wrong() {
    // A document with targets t and keys a and b, and `rest` after them (inside "keys" or
    // after it).
    let doc = |keys: &str, rest: &str| {
        format!(
            r#"{{"format": "mpi-info-hints", "version": 1, "targets": [{{"name": "t", "title": "T", "read": "r"}}], "keys": [{keys}]{rest}}}"#
        )
    };
    let key = |name: &str, extra: &str| {
        format!(
            r#"{{"key": "{name}", "objects": ["file"], "type": "int", "summary": "s"{extra}, "readers": [{{"target": "t", "parse": "atoi", "source": "x"}}]}}"#
        )
    };
    let structural = [
        (
            doc(
                &key("a", ""),
                r#", "conflicts": [{"targets": ["t"], "when": [{"key": "a"}, {"key": "nokey"}], "message": "m", "source": "x"}]"#,
            ),
            "conflicts[0].when[1]: key \"nokey\" is not a key",
        ),
        (doc(&key("a", r#", "alias_of": "a""#), ""), "key \"a\": an alias of itself"),
        (
            doc(&format!("{},{}", key("a", r#", "alias_of": "b""#), key("b", r#", "alias_of": "a""#)), ""),
            "key \"a\": aliases in a cycle: \"b\" is itself an alias of \"a\"",
        ),
        (
            doc(
                &format!("{},{},{}", key("a", r#", "alias_of": "b""#), key("b", r#", "alias_of": "c""#), key("c", "")),
                "",
            ),
            "key \"a\": an alias of an alias: \"b\" is itself an alias of \"c\"",
        ),
        (
            doc(&key("a", "").replace(r#""summary": "s""#, r#""summary": "one\ntwo""#), ""),
            "keys[0] (\"a\"): \"summary\" holds a line break or another control character (at byte 3); it is one line",
        ),
        (
            doc(
                &format!("{},{}", key("a", ""), key("b", "")),
                r#", "conflicts": [{"targets": ["t"], "when": [{"key": "a"}, {"key": "b"}], "message": "m\r\nforged: line", "source": "x"}]"#,
            ),
            "conflicts[0]: \"message\" holds a line break or another control character (at byte 1); it is one line",
        ),
    ];
    for (text, expected) in &structural {
        match Vocabulary::from_json(text.as_bytes(), None) {
            Err(VocabularyError::Invalid(message)) => assert_eq!(message, *expected, "for {text}"),
            other => panic!("{other:?} for {text}"),
        }
    }
    // The same document without the defect reads.
    assert!(Vocabulary::from_json(
        doc(&format!("{},{}", key("a", r#", "alias_of": "b""#), key("b", "")), "").as_bytes(),
        None
    )
    .is_ok());

    let cases: [(&str, &str); 9] = [
        ("[]", "the document: is an array, not an object"),
        (r#"{"format": "x", "version": 1}"#, "\"format\" is \"x\", not \"mpi-info-hints\""),
        (r#"{"format": "mpi-info-hints", "version": 2}"#, "\"version\" is 2; this library reads version 1"),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [], "extra": 1}"#,
            "the document: unknown field \"extra\"",
        ),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "objects": ["file"], "type": "int", "summary": "s", "readers": [{"target": "t", "parse": "atoi"}]}]}"#,
            "key \"k\", readers[0]: \"source\" is missing",
        ),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "objects": ["file"], "summary": "s", "readers": []}]}"#,
            "keys[0] (\"k\"): \"type\" is missing",
        ),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "objects": ["file"], "type": "int", "summary": "s", "readers": [{"target": "t", "parse": "atoi", "source": "x"}]}]}"#,
            "key \"k\": reader target \"t\" is not a target",
        ),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [], "keys": [{"key": "k", "objects": ["disk"], "type": "int", "summary": "s", "readers": []}]}"#,
            "keys[0] (\"k\"): object \"disk\" is not one of",
        ),
        ("{\"format\": ", "not JSON: line 1, column 12 (byte 11): unexpected end of text"),
    ];
    for (text, expected) in cases {
        match Vocabulary::from_json(text.as_bytes(), None) {
            Err(VocabularyError::Invalid(message)) => assert!(message.starts_with(expected), "{message:?} for {text}"),
            other => panic!("{other:?} for {text}"),
        }
    }
}

#[test]
fn the_builtin_vocabulary_reads_and_every_entry_has_a_type_and_a_source() {
    let vocabulary = Vocabulary::builtin().unwrap();
    let mut count = 0;
    for entry in vocabulary.entries() {
        count += 1;
        assert!(!entry.summary.is_empty(), "{}", entry.key);
        assert!(!entry.readers.is_empty(), "{}", entry.key);
        for reader in &entry.readers {
            assert!(!reader.source.is_empty(), "{} for {}", entry.key, reader.target);
            let target = vocabulary.target(&reader.target).expect("a reader's target exists");
            assert!(!target.read.is_empty());
        }
        if entry.kind == Kind::Enum {
            assert!(!entry.values.is_empty(), "{}", entry.key);
        }
    }
    assert!(count > 0);
    for name in ["mpi", "mpich", "openmpi"] {
        assert!(vocabulary.target(name).is_some(), "{name}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any bytes are a vocabulary or an error, never a panic.
        #[test]
        fn any_text_reads_or_is_refused(text in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = Vocabulary::from_json(&text, None);
        }

        /// The built-in document with bytes changed, cut or repeated reads or is refused.
        #[test]
        fn damaged_documents_read_or_are_refused(at in 0..BUILTIN_TEXT.len(), byte in any::<u8>(), cut in any::<bool>()) {
            let mut text = BUILTIN_TEXT.to_vec();
            if cut {
                text.truncate(at);
            } else {
                text[at] = byte;
            }
            let _ = Vocabulary::from_json(&text, None);
        }

        /// Any pairs are checked without a panic, every finding names a pair checked, and a
        /// message fits a value.
        #[test]
        fn any_pairs_are_checked(pairs in proptest::collection::vec(
            (proptest::collection::vec(any::<u8>(), 1..40), proptest::collection::vec(any::<u8>(), 0..40)), 0..12),
            targets in proptest::sample::select(vec![None, Some("mpich"), Some("openmpi,pnetcdf"), Some("mpi")]))
        {
            let vocabulary = Vocabulary::builtin().unwrap();
            let targets = Targets::parse(vocabulary, targets).unwrap();
            let pairs: Vec<(&[u8], &[u8])> = pairs.iter().map(|(k, v)| (k.as_slice(), v.as_slice())).collect();
            for finding in check(vocabulary, &targets, &pairs).unwrap() {
                prop_assert!(finding.pair < pairs.len());
                prop_assert!(finding.message.len() <= crate::info::MAX_VALUE_LEN);
            }
        }
    }
}

/// Every known key of 8 characters or more, with any one letter dropped, is named in the
/// unknown-key message of the typo (when the typo is not itself a key).
#[test]
fn a_dropped_letter_is_suggested_back() {
    let vocabulary = Vocabulary::builtin().unwrap();
    let targets = Targets::parse(vocabulary, None).unwrap();
    let mut tried = 0;
    for entry in vocabulary.entries().filter(|entry| entry.key.len() >= 8) {
        let key = entry.key.as_bytes();
        for at in 0..key.len() {
            let typo: Vec<u8> = key[..at].iter().chain(&key[at + 1..]).copied().collect();
            if vocabulary.entry(&typo).is_some() {
                continue;
            }
            let findings = check(vocabulary, &targets, &[(&typo, b"1")]).unwrap();
            assert_eq!(findings[0].code, Code::UnknownKey);
            assert!(
                findings[0].message.contains(&format!("'{}'", entry.key)),
                "{} for {}",
                findings[0].message,
                entry.key
            );
            tried += 1;
        }
    }
    assert!(tried > 1000, "{tried}");
}
