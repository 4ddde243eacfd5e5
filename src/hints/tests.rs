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
    assert_eq!(
        findings(Some("small"), &[("buffer_size", "16MB")]),
        one(Code::BadValue, "buffer_size", Some("16777216"))
    );
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

    let cases: [(&str, &str); 11] = [
        ("[]", "the document: is an array, not an object"),
        (
            r#"{"format": "mpi-info-hints", "version": 1, "targets": [{"name": "t", "title": "T", "read": "r", "passes_hints_to_mpi": "x.c:1"}], "keys": []}"#,
            "targets[0]: unknown field \"passes_hints_to_mpi\"",
        ),
        (
            r#"{"format": "mpi-info-hints", "version": 2, "targets": [{"name": "t", "title": "T", "read": "r", "passes_hints_to_mpi": true}], "keys": []}"#,
            "targets[0]: \"passes_hints_to_mpi\" is a boolean, not a string",
        ),
        (r#"{"format": "x", "version": 1}"#, "\"format\" is \"x\", not \"mpi-info-hints\""),
        (r#"{"format": "mpi-info-hints", "version": 3}"#, "\"version\" is 3; this library reads versions 1 and 2"),
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

/// `Reader::parse` and `Reader::read`: sentinels before the parser, a boolean's words, and what
/// a value the parser does not read becomes.
#[test]
fn a_reader_reads_sentinels_first_and_completes_what_it_cannot_read() {
    let doc = r#"{"format": "mpi-info-hints", "version": 2,
      "targets": [{"name": "t", "title": "T", "read": "r"}],
      "keys": [
        {"key": "n", "objects": ["file"], "type": "int", "summary": "s", "readers": [
          {"target": "t", "parser": "atoi", "sentinels": [{"value": "-1", "means": "auto"}], "source": "a"}]},
        {"key": "z", "objects": ["file"], "type": "size", "summary": "s", "readers": [
          {"target": "t", "parser": "strtol10", "whole": true, "invalid": "zero", "source": "a"}]},
        {"key": "d", "objects": ["file"], "type": "size", "summary": "s", "readers": [
          {"target": "t", "parser": "strtol10", "whole": true, "invalid": "default", "default": "4", "source": "a"}]},
        {"key": "b", "objects": ["file"], "type": "bool", "summary": "s", "readers": [
          {"target": "t", "parser": "strcmp", "accepts": ["on", "off"], "true": ["on"], "false": ["off"],
           "invalid": "false", "source": "a"}]},
        {"key": "i", "objects": ["file"], "type": "enum", "values": ["a"], "summary": "s", "readers": [
          {"target": "t", "parser": "strcmp", "accepts": ["a"], "invalid": "ignored", "source": "a"}]}]}"#;
    let vocabulary = Vocabulary::from_json(doc.as_bytes(), None).unwrap();
    let both = |key: &str, value: &str| {
        let entry = vocabulary.entry(key.as_bytes()).unwrap();
        let reader = &entry.readers[0];
        (reader.parse(entry, value.as_bytes()), reader.read(entry, value.as_bytes()))
    };
    assert_eq!(both("n", "-1"), (Reading::Sentinel(0), Reading::Sentinel(0)));
    assert_eq!(both("n", " -1"), (Reading::Number(-1), Reading::Number(-1)), "a sentinel is compared exactly");
    assert_eq!(both("n", "16k"), (Reading::Number(16), Reading::Number(16)));
    assert_eq!(both("z", "16k"), (Reading::Invalid, Reading::Number(0)));
    assert_eq!(both("d", "16k"), (Reading::Invalid, Reading::Number(4)), "the reader's default, as it reads it");
    assert_eq!(both("d", "8"), (Reading::Number(8), Reading::Number(8)));
    assert_eq!(both("b", "on"), (Reading::Bool(true), Reading::Bool(true)));
    assert_eq!(both("b", "off"), (Reading::Bool(false), Reading::Bool(false)));
    assert_eq!(both("b", "ON"), (Reading::Invalid, Reading::Bool(false)));
    assert_eq!(both("i", "a"), (Reading::Word(0), Reading::Word(0)));
    assert_eq!(both("i", "A"), (Reading::Invalid, Reading::Invalid), "ignored: nothing is read");
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

/// The vocabulary checks itself (docs/hints.md, "The vocabulary checks itself"): every default
/// is read by its own reader as itself and lies in its range (or is a declared sentinel); every
/// value of an enumeration is taken by its readers of words; every number a reader treats as
/// special is declared (a default outside the range is one of its sentinels). That no two
/// readers of one target hold for one release is refused when the document is read.
mod self_checks {
    use super::super::verdict::judge;
    use super::*;

    /// Whether `reader` takes `value` at all: its parser reads it (to whatever effect), or it
    /// leaves the default that the value means.
    fn takes(entry: &Entry, reader: &Reader, value: &[u8]) -> bool {
        let read = parsers::read(&reader.grammar(entry.kind), value) != Reading::Invalid;
        read || reader.invalid == Some(Invalid::Default) && judge(entry, reader, value).is_ok_and(|v| v.is_none())
    }

    /// Every reader of the built-in vocabulary, with its entry.
    fn readers() -> impl Iterator<Item = (&'static Entry, &'static Reader)> {
        let vocabulary = Vocabulary::builtin().unwrap();
        vocabulary.entries().flat_map(move |entry| vocabulary.readers(entry).map(move |reader| (entry, reader)))
    }

    #[test]
    fn every_default_reads_as_itself_in_range() {
        let mut wrong = Vec::new();
        // An inverted reader's default is what holds without the key, not a value to set.
        for (entry, reader) in readers().filter(|(_, reader)| !reader.inverted) {
            let Some(default) = &reader.default else { continue };
            if let Some(verdict) = judge(entry, reader, default.as_bytes()).unwrap() {
                if verdict.severity != Severity::Note {
                    wrong.push(format!(
                        "{} ({} {}): {}",
                        entry.key,
                        reader.target,
                        reader.source,
                        verdict.outcome.as_str()
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "{} defaults:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn every_enum_value_is_taken_by_its_readers_of_words() {
        let mut wrong = Vec::new();
        for (entry, reader) in readers().filter(|(entry, _)| entry.kind == Kind::Enum) {
            let words = matches!(reader.parser, Parser::RomioEnabled | Parser::Strcmp | Parser::Strcasecmp);
            if !words || reader.unread {
                continue;
            }
            for value in &entry.values {
                if !takes(entry, reader, value.as_bytes()) {
                    wrong.push(format!("{} ({} {}): {value}", entry.key, reader.target, reader.source));
                }
            }
        }
        assert!(wrong.is_empty(), "{} values:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn a_default_outside_the_range_is_a_sentinel() {
        let mut wrong = Vec::new();
        for (entry, reader) in readers().filter(|(_, reader)| reader.parser.numeric()) {
            let Some(default) = &reader.default else { continue };
            let Ok(n) = crate::typed::parse_i64(default.as_bytes()) else { continue };
            let outside = reader.min.is_some_and(|min| n < min) || reader.max.is_some_and(|max| n > max);
            if outside && !reader.sentinels.iter().any(|s| s.value == *default) {
                wrong.push(format!("{} ({} {}): {default}", entry.key, reader.target, reader.source));
            }
        }
        assert!(wrong.is_empty(), "{} defaults:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn readers_of_one_target_never_overlap() {
        let overlapping = r#"{"format": "mpi-info-hints", "version": 2,
          "targets": [{"name": "t", "title": "T", "read": "r", "releases": ["1.0.0", "1.1.0", "2.0.0"]}],
          "keys": [{"key": "k", "objects": ["file"], "type": "int", "summary": "s", "readers": [
            {"target": "t", "parser": "atoi", "until": "2.0.0", "source": "a"},
            {"target": "t", "parser": "atol", "since": "1.1.0", "source": "b"}]}]}"#;
        match Vocabulary::from_json(overlapping.as_bytes(), None) {
            Err(VocabularyError::Invalid(why)) => {
                assert_eq!(why, "key \"k\": readers[0] and readers[1] of t hold for the same releases")
            }
            other => panic!("{other:?}"),
        }
        // Under different conditions, or in ranges that meet without overlapping, they may.
        let fine = overlapping.replace(r#""since": "1.1.0""#, r#""since": "2.0.0""#);
        assert!(Vocabulary::from_json(fine.as_bytes(), None).is_ok());
        let conditioned = overlapping.replace(r#""since": "1.1.0","#, r#""since": "1.1.0", "only_under": "a driver","#);
        assert!(Vocabulary::from_json(conditioned.as_bytes(), None).is_ok());
        // The built-in vocabulary is read (and so holds no overlap).
        assert!(Vocabulary::builtin().is_ok());
    }
}

/// The verdicts an audit of the vocabulary against the upstream sources found wrong, as they
/// are now (issue: "Verdicts you can trust"): each was a right hint flagged, or a wrong one
/// passed.
mod audit {
    use super::*;

    /// (code, severity, message) of each finding for `pairs` with `targets`.
    fn verdicts(targets: &str, pairs: &[(&str, &str)]) -> Vec<(Code, Severity, String)> {
        let vocabulary = Vocabulary::builtin().unwrap();
        let targets = Targets::parse(vocabulary, Some(targets)).unwrap();
        let pairs: Vec<(&[u8], &[u8])> = pairs.iter().map(|(k, v)| (k.as_bytes(), v.as_bytes())).collect();
        check(vocabulary, &targets, &pairs).unwrap().into_iter().map(|f| (f.code, f.severity, f.message)).collect()
    }

    fn severities(targets: &str, pairs: &[(&str, &str)]) -> Vec<Severity> {
        verdicts(targets, pairs).into_iter().map(|(_, s, _)| s).collect()
    }

    #[test]
    fn mpichs_own_reported_default_is_no_error() {
        // Taken and reported, but used by no release: no effect, never an error.
        assert_eq!(
            verdicts("mpich", &[("accumulate_max_bytes", "unlimited")]),
            [(
                Code::NotReadByTarget,
                Severity::Warning,
                "for mpich: 'accumulate_max_bytes' is taken but nothing uses it: it has no effect".into()
            )]
        );
        assert_eq!(severities("mpich", &[("accumulate_max_bytes", "-1")]), [Severity::Warning]);
        let upper = verdicts("mpich", &[("accumulate_max_bytes", "UNLIMITED")]);
        assert!(
            upper.iter().any(|(c, s, m)| *c == Code::BadValue
                && *s == Severity::Error
                && m.contains("'UNLIMITED' is read as 0")),
            "{upper:?}"
        );
    }

    #[test]
    fn open_mpi_aggregators_minus_one_is_automatic_and_zero_an_error() {
        assert_eq!(verdicts("openmpi", &[("cb_nodes", "-1")]), []);
        assert_eq!(verdicts("openmpi@4.1.4", &[("cb_nodes", "-1")]), []);
        assert_eq!(
            verdicts("openmpi@4.1.4", &[("cb_nodes", "0")]),
            [(Code::OutOfRange, Severity::Error, "for openmpi 4.1.4: 0 is below the least value it takes, 1".into())]
        );
    }

    #[test]
    fn open_mpi_booleans_by_release() {
        // opal_str_to_bool reads a leading digit with atoi: 2 is true, in every release.
        for release in ["openmpi@4.1.4", "openmpi@5.0.9", "openmpi"] {
            assert!(verdicts(release, &[("no_locks", "2")]).iter().all(|(c, s, m)| {
                *c == Code::UnusualSpelling && *s == Severity::Note && m.contains("'2' is read as true")
            }));
        }
        // 4.1 needs the whole word; 5.0 takes a prefix.
        let old = verdicts("openmpi@4.1", &[("no_locks", "truely")]);
        assert!(
            !old.is_empty()
                && old.iter().all(|(c, s, m)| *c == Code::BadValue
                    && *s == Severity::Error
                    && m.starts_with("for openmpi 4.1.0 to 4.1.8 (")),
            "{old:?}"
        );
        assert_eq!(severities("openmpi@5.0", &[("no_locks", "truely")]), [Severity::Note]);
        assert_eq!(verdicts("openmpi", &[("no_locks", "true")]), []);
    }

    #[test]
    fn a_key_renamed_between_releases_suggests_the_other_spelling_both_ways() {
        let vocabulary = Vocabulary::builtin().unwrap();
        let found = |targets, key: &str| {
            let targets = Targets::parse(vocabulary, Some(targets)).unwrap();
            check(vocabulary, &targets, &[(key.as_bytes(), b"2")]).unwrap()
        };
        let old = found("mpich@4.0.2", "start_iodevice");
        assert_eq!((old[0].code, old[0].severity), (Code::NotReadByTarget, Severity::Warning));
        assert_eq!(old[0].suggestion.as_deref(), Some("romio_lustre_start_iodevice"));
        assert_eq!(found("mpich@4.0.2", "romio_lustre_start_iodevice"), []);
        assert_eq!(found("mpich@4.1", "romio_lustre_start_iodevice"), []);
        let new = found("mpich@4.2.0", "romio_lustre_start_iodevice");
        assert_eq!(new[0].suggestion.as_deref(), Some("start_iodevice"));
        assert_eq!(
            new[0].message,
            "'romio_lustre_start_iodevice' is not read by mpich 4.2.0; mpich 4.2.0 reads it as 'start_iodevice'"
        );
        assert_eq!(found("mpich", "start_iodevice"), []);
        // Over a range of releases, the ones that do not read it are named.
        let both = found("mpich@4", "start_iodevice");
        assert!(
            both[0]
                .message
                .starts_with("'start_iodevice' is not read by mpich 4.0.0 to 4.1.3; it is read by mpich 4.2.0 to main"),
            "{}",
            both[0].message
        );
    }

    #[test]
    fn open_mpi_collective_buffering_is_inverted_until_5_0_10() {
        let inverted = verdicts("openmpi@4.1.4", &[("collective_buffering", "true")]);
        assert_eq!(inverted.len(), 1);
        assert_eq!((inverted[0].0, inverted[0].1), (Code::BadValue, Severity::Error));
        assert!(inverted[0].2.starts_with("for openmpi 4.1.4: 'true' turns it off"), "{}", inverted[0].2);
        let series = verdicts("openmpi@5.0", &[("collective_buffering", "true")]);
        assert!(series[0].2.starts_with("for openmpi 5.0.0 to 5.0.9: "), "{}", series[0].2);
        assert_eq!(verdicts("openmpi@5.0.10", &[("collective_buffering", "true")]), []);
        assert_eq!(verdicts("openmpi", &[("collective_buffering", "true")]), []);
        assert_eq!(severities("openmpi@4.1.4", &[("collective_buffering", "false")]), [Severity::Error]);
    }

    #[test]
    fn pnetcdf_alignments_conflict_only_where_one_supersedes_and_the_values_differ() {
        let equal = [("nc_header_align_size", "1048576"), ("nc_var_align_size", "1048576")];
        let unequal = [("nc_header_align_size", "1048576"), ("nc_var_align_size", "4096")];
        for release in ["pnetcdf@1.12.3", "pnetcdf@1.13.0", "pnetcdf@1.14.1", "pnetcdf"] {
            assert_eq!(verdicts(release, &equal), [], "{release}");
        }
        assert_eq!(verdicts("pnetcdf@1.12", &unequal), [], "independent in 1.12.x");
        for release in ["pnetcdf@1.13.0", "pnetcdf@1.14.1", "pnetcdf@1.15.0"] {
            assert_eq!(severities(release, &unequal), [Severity::Warning], "{release}");
        }
        // 1m is read as 1 by strtoll (then rounded up to 4).
        assert_eq!(
            verdicts("pnetcdf@1.12.3", &[("nc_var_align_size", "1m")]),
            [(
                Code::UnitSuffix,
                Severity::Error,
                "for pnetcdf 1.12.3: '1m' is read as 1: the 'm' is dropped; 1m is 1048576".into()
            )]
        );
    }

    #[test]
    fn a_word_with_the_effect_of_another() {
        // ROMIO's flush adds its barrier for any setting above 0: disable (2) as enable (1).
        assert_eq!(
            verdicts("mpich", &[("romio_synchronized_flush", "disable")]),
            [(Code::BadValue, Severity::Error, "for mpich: 'disable' has the effect of 'enable'".into())]
        );
        assert_eq!(verdicts("mpich", &[("romio_synchronized_flush", "enable")]), []);
        // PnetCDF's GIO driver takes false and disable as inherit.
        let gio = verdicts("pnetcdf", &[("file_striping", "disable")]);
        assert!(
            gio.iter().any(|(c, _, m)| *c == Code::BadValue && m.contains("has the effect of 'inherit'")),
            "{gio:?}"
        );
        assert_eq!(verdicts("pnetcdf", &[("file_striping", "inherit")]), []);
    }

    #[test]
    fn another_layers_hints_are_notes() {
        assert_eq!(severities("openmpi", &[("romio_cb_write", "enable")]), [Severity::Note]);
        assert_eq!(severities("openmpi", &[("nc_var_align_size", "4096")]), [Severity::Note]);
        assert_eq!(severities("openmpi@4.1.4", &[("striping_unit", "1048576")]), [Severity::Warning]);
        assert_eq!(severities("openmpi", &[("striping_unit", "1048576")]), []);
    }

    #[test]
    fn an_mpi_hint_given_to_pnetcdf_is_passed_on_whatever_its_release() {
        // PnetCDF 1.12.3 reads no ROMIO hint, but hands them all to MPI_File_open; its GIO
        // driver reads some from 1.15.0. That is no warning for 1.12.3 or the 1.x series.
        let passed_on = |targets: &str, key: &str| {
            let found = verdicts(targets, &[(key, "disable")]);
            assert_eq!(found.len(), 1, "{targets} {key}: {found:?}");
            assert_eq!((found[0].0, found[0].1), (Code::NotReadByTarget, Severity::Note), "{targets} {key}");
            assert!(found[0].2.contains("pnetcdf passes it on to the MPI, and it is read by mpich"), "{}", found[0].2);
        };
        passed_on("pnetcdf@1.12.3", "romio_ds_write");
        passed_on("pnetcdf@1.12.3,openmpi@4.1.4", "romio_ds_write"); // a ROMIO hint on OMPIO too
        passed_on("pnetcdf@1.12.3,openmpi@4.1.4", "romio_no_indep_rw");
        passed_on("pnetcdf@1", "romio_ds_write"); // read by 1.15.0 on only
        assert_eq!(severities("pnetcdf@1.12.3", &[("cb_nodes", "4")]), [Severity::Note]);
        assert_eq!(verdicts("pnetcdf@1.15.0", &[("romio_ds_write", "disable")]), []);
        assert_eq!(verdicts("pnetcdf@1.12.3,mpich@4.0.2", &[("romio_ds_write", "disable")]), []);
        // An MPI's own hint in the wrong release stays a warning, a library reading it or not.
        assert_eq!(severities("mpich@4.0.2", &[("start_iodevice", "2")]), [Severity::Warning]);
        assert_eq!(severities("pnetcdf@1.12.3,mpich@4.0.2", &[("start_iodevice", "2")]), [Severity::Warning]);
        // A key only PnetCDF reads, in releases not named, still is a warning: nothing else reads it.
        assert_eq!(severities("pnetcdf@1.12.3", &[("nc_driver", "gio")]), [Severity::Warning]);
    }
}

/// The library embeds data/hints.json without its readers' prose (build.rs): the two read alike
/// but for that prose, and the embedded one is well under half the size.
#[test]
fn the_embedded_vocabulary_is_the_document_without_its_prose() {
    const DOCUMENT: &[u8] = include_bytes!("../../data/hints.json");
    let whole = Vocabulary::from_json(DOCUMENT, None).unwrap();
    let embedded = Vocabulary::builtin().unwrap();
    let entries: Vec<&Entry> = whole.entries().collect();
    assert_eq!(entries.len(), embedded.entries().count());
    for (a, b) in entries.iter().zip(embedded.entries()) {
        assert_eq!((&a.key, a.readers.len(), &a.summary), (&b.key, b.readers.len(), &b.summary));
        for (ra, rb) in a.readers.iter().zip(&b.readers) {
            assert_eq!(
                (&ra.target, ra.parser, ra.releases, &ra.source, &ra.otherwise),
                (&rb.target, rb.parser, rb.releases, &rb.source, &rb.otherwise)
            );
            assert!(rb.how.is_none() && rb.reports_how.is_none());
        }
    }
    assert!(entries.iter().any(|e| e.readers.iter().any(|r| r.how.is_some())));
    assert!(BUILTIN_TEXT.len() * 2 < DOCUMENT.len(), "{} of {}", BUILTIN_TEXT.len(), DOCUMENT.len());
}
