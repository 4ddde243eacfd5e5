//! `--list` and `--explain`: the vocabulary as a person or a program reads it. In text, each
//! piece of the vocabulary (a `--vocabulary` file's text too) is shown escaped ([`Escaped`]).

use mpi_info::hints::release::Spans;
use mpi_info::hints::{check, Code, Entry, Escaped, Quoted, Reader, Takes, Targets, Vocabulary};
use serde_json::{json, Value};

use crate::output::Format;

/// The target names, comma-separated.
pub fn target_names(vocabulary: &Vocabulary) -> String {
    vocabulary.targets().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// Every key (read by `target`, if given): one line each, or a JSON array.
pub fn list(vocabulary: &Vocabulary, target: Option<&str>, format: Format) -> String {
    let entries: Vec<&Entry> = vocabulary
        .entries()
        .filter(|entry| target.map_or(true, |t| entry.readers.iter().any(|r| r.target == t)))
        .collect();
    match format {
        Format::Json => {
            let array: Vec<Value> = entries
                .iter()
                .map(|entry| {
                    json!({
                        "key": entry.key,
                        "type": entry.kind.as_str(),
                        "objects": entry.objects,
                        "targets": readers_of(entry),
                        "summary": entry.summary,
                    })
                })
                .collect();
            let mut text = serde_json::to_string_pretty(&array).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Text | Format::Html => {
            let width = entries.iter().map(|e| shown(&e.key).len()).max().unwrap_or(0);
            entries
                .iter()
                .map(|entry| {
                    format!(
                        "{:width$}  {:8}  {:28}  {}\n",
                        shown(&entry.key),
                        entry.kind.as_str(),
                        shown(&readers_of(entry).join(",")),
                        shown(&entry.summary)
                    )
                })
                .collect()
        }
    }
}

/// The targets that read a key, each once, in the order of its readers.
fn readers_of(entry: &Entry) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for reader in &entry.readers {
        if !names.contains(&reader.target.as_str()) {
            names.push(&reader.target);
        }
    }
    names
}

/// Vocabulary text as a person reads it: escaped, whole.
fn shown(text: &str) -> String {
    Escaped(text.as_bytes()).to_string()
}

/// Everything known about `key`, or the message for an unknown key.
pub fn explain(vocabulary: &Vocabulary, key: &[u8], format: Format) -> Result<String, String> {
    let Some(entry) = vocabulary.entry(key) else {
        let all = Targets::parse(vocabulary, None).map_err(|e| e.to_string())?;
        let findings = check(vocabulary, &all, &[(key, b"")]).map_err(|e| e.to_string())?;
        let unknown = findings.into_iter().find(|f| f.code == Code::UnknownKey);
        return Err(unknown.map_or_else(|| format!("unknown hint '{}'", Quoted(key)), |f| f.message));
    };
    let aliases: Vec<&str> = vocabulary
        .entries()
        .filter(|other| other.alias_of.as_deref() == Some(&entry.key))
        .map(|other| other.key.as_str())
        .collect();
    match format {
        Format::Json => {
            let readers: Vec<Value> = entry.readers.iter().map(|reader| reader_json(vocabulary, reader)).collect();
            let value = json!({
                "key": entry.key,
                "summary": entry.summary,
                "objects": entry.objects,
                "type": entry.kind.as_str(),
                "values": entry.values,
                "min": entry.min,
                "max": entry.max,
                "default": entry.default,
                "alias_of": entry.alias_of,
                "aliases": aliases,
                "readers": readers,
            });
            Ok(serde_json::to_string_pretty(&value).unwrap_or_default() + "\n")
        }
        Format::Text | Format::Html => {
            let mut out = format!("{}: {}\n", shown(&entry.key), shown(&entry.summary));
            out += &format!("  objects:  {}\n", shown(&entry.objects.join(", ")));
            let mut kind = entry.kind.as_str().to_string();
            if !entry.values.is_empty() {
                kind += &format!(", one of: {}", shown(&entry.values.join(", ")));
            }
            if let Some(range) = range(entry.min, entry.max) {
                kind += &format!(", {range}");
            }
            out += &format!("  type:     {kind}\n");
            if let Some(default) = &entry.default {
                out += &format!("  default:  {}\n", shown(default));
            }
            if let Some(canonical) = &entry.alias_of {
                out += &format!("  another name of: {}\n", shown(canonical));
            }
            if !aliases.is_empty() {
                out += &format!("  also spelled: {}\n", shown(&aliases.join(", ")));
            }
            out += "  read by:\n";
            for reader in &entry.readers {
                out += &reader_text(vocabulary, reader);
            }
            out += "  versions read:\n";
            for name in readers_of(entry) {
                if let Some(target) = vocabulary.target(name) {
                    out += &format!("    {}: {} ({})\n", shown(name), shown(&target.title), shown(&target.read));
                }
            }
            Ok(out)
        }
    }
}

fn range(min: Option<i64>, max: Option<i64>) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) => Some(format!("from {min} to {max}")),
        (Some(min), None) => Some(format!("at least {min}")),
        (None, Some(max)) => Some(format!("at most {max}")),
        (None, None) => None,
    }
}

/// How the reader reads a value, in words: its parser, and what that takes.
fn parse_words(reader: &Reader) -> String {
    format!("{}: {}", reader.parser.as_str(), Takes(reader))
}

/// The releases a reader holds for, written as runs ("4.1.0 to 5.0.9"), or nothing for a target
/// described without releases.
fn releases(vocabulary: &Vocabulary, reader: &Reader) -> Option<String> {
    let target = vocabulary.target(&reader.target)?;
    if target.releases.is_empty() {
        return None;
    }
    Some(Spans { releases: &target.releases, set: reader.releases }.to_string())
}

fn reader_text(vocabulary: &Vocabulary, reader: &Reader) -> String {
    let mut out = format!("    {}: {}\n", shown(&reader.target), shown(&parse_words(reader)));
    if let Some(releases) = releases(vocabulary, reader) {
        out += &format!("        releases: {releases}\n");
    }
    if let Some(condition) = &reader.only_under {
        out += &format!("        only under: {}\n", shown(condition));
    }
    if reader.unread {
        out += "        taken, but nothing uses it: no effect\n";
    }
    if reader.inverted {
        out += "        inverted: a value read as true turns the behaviour off\n";
    }
    for sentinel in &reader.sentinels {
        out += &format!("        {}: {}\n", shown(&sentinel.value), shown(&sentinel.means));
    }
    if let Some(range) = range(reader.min, reader.max) {
        out += &format!("        range: {range}\n");
    }
    if let Some(default) = &reader.default {
        out += &format!("        default: {}\n", shown(default));
    }
    if let Some(otherwise) = &reader.otherwise {
        out += &format!("        a value it cannot read is {}\n", shown(otherwise));
    }
    if let Some(how) = &reader.how {
        out += &format!("        how: {}\n", shown(how));
    }
    match &reader.version {
        Some(version) => out += &format!("        source: {} ({})\n", shown(&reader.source), shown(version)),
        None => out += &format!("        source: {}\n", shown(&reader.source)),
    }
    out
}

fn reader_json(vocabulary: &Vocabulary, reader: &Reader) -> Value {
    json!({
        "target": reader.target,
        "parser": reader.parser.as_str(),
        "reads": parse_words(reader),
        "accepts": reader.accepts,
        "true": reader.true_words,
        "false": reader.false_words,
        "min": reader.min,
        "max": reader.max,
        "default": reader.default,
        "otherwise": reader.otherwise,
        "how": reader.how,
        "releases": releases(vocabulary, reader),
        "only_under": reader.only_under,
        "unread": reader.unread,
        "inverted": reader.inverted,
        "sentinels": reader.sentinels.iter().map(|s| json!({"value": s.value, "means": s.means})).collect::<Vec<_>>(),
        "reports": reader.reports,
        "source": reader.source,
        "version": reader.version.clone().or_else(|| vocabulary.target(&reader.target).map(|t| t.read.clone())),
    })
}
