//! THROWAWAY: a stand-in for `mpi_info::hints` (the lead's checking core) with the same
//! interface and a tiny vocabulary, so that the tool can be built and tried before that module
//! lands on main. Removed at the merge.

use mpi_info::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    UnknownKey,
    BadValue,
    UnitSuffix,
    OutOfRange,
    NotReadByTarget,
    TooLongForTarget,
    Conflict,
}

impl Code {
    pub fn as_str(&self) -> &'static str {
        match self {
            Code::UnknownKey => "unknown-key",
            Code::BadValue => "bad-value",
            Code::UnitSuffix => "unit-suffix",
            Code::OutOfRange => "out-of-range",
            Code::NotReadByTarget => "not-read-by-target",
            Code::TooLongForTarget => "too-long-for-target",
            Code::Conflict => "conflict",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Finding {
    pub code: Code,
    pub key: String,
    pub value: String,
    pub message: String,
    pub suggestion: Option<String>,
}

pub struct Vocabulary;
pub struct Targets(#[allow(dead_code)] Vec<String>);

static VOCAB: Vocabulary = Vocabulary;
const INTS: &[&str] = &["cb_buffer_size", "striping_factor", "striping_unit", "cb_nodes", "ind_rd_buffer_size", "ind_wr_buffer_size"];
const SWITCHES: &[&str] = &["romio_cb_write", "romio_cb_read", "romio_ds_read", "romio_ds_write"];
const OTHERS: &[&str] = &["access_style", "collective_buffering", "file_perm", "cb_config_list", "no_locks", "mpi_assert_no_any_tag"];

impl Vocabulary {
    pub fn builtin() -> Result<&'static Vocabulary, Error> {
        Ok(&VOCAB)
    }
}

impl Targets {
    pub fn parse(_vocab: &Vocabulary, list: Option<&str>) -> Result<Targets, Error> {
        Ok(Targets(list.unwrap_or("mpi").split(',').map(String::from).collect()))
    }
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

pub fn check(_vocab: &Vocabulary, _targets: &Targets, pairs: &[(&[u8], &[u8])]) -> Result<Vec<Finding>, Error> {
    let mut out = Vec::new();
    for (k, v) in pairs {
        let key = String::from_utf8_lossy(k).into_owned();
        let value = String::from_utf8_lossy(v).into_owned();
        let f = |code, message: &str, suggestion: Option<String>| Finding {
            code,
            key: key.clone(),
            value: value.clone(),
            message: message.to_string(),
            suggestion,
        };
        if INTS.contains(&key.as_str()) {
            let digits = value.trim_start_matches('-');
            let lead = digits.chars().take_while(|c| c.is_ascii_digit()).count();
            if lead == digits.len() && lead > 0 {
                if value.starts_with('-') {
                    out.push(f(Code::OutOfRange, "must not be negative", None));
                }
            } else if lead > 0 {
                out.push(f(Code::UnitSuffix, "the suffix is dropped: read as the number before it", None));
            } else {
                out.push(f(Code::BadValue, "not an integer", None));
            }
        } else if SWITCHES.contains(&key.as_str()) {
            if !["enable", "disable", "automatic"].contains(&value.as_str()) {
                out.push(f(Code::BadValue, "one of enable, disable, automatic", None));
            }
        } else if !OTHERS.contains(&key.as_str()) {
            let best = INTS.iter().chain(SWITCHES).chain(OTHERS).min_by_key(|c| distance(&key, c)).copied();
            let suggestion = best.filter(|b| distance(&key, b) <= 2).map(String::from);
            out.push(f(Code::UnknownKey, "no target reads this key", suggestion));
        }
    }
    Ok(out)
}
