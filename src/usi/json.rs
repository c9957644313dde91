//! Just enough JSON output for `kanju solve --json`: one flat object per line. Hand-written because the
//! whole need is string escaping and a few value kinds.

use std::fmt::Write;

/// A JSON value as `solve --json` needs them.
pub enum Value {
    Null,
    Number(u64),
    Str(String),
    Strings(Vec<String>),
}

/// `s` as a JSON string literal, quotes included.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Value {
    fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Str(s) => out.push_str(&string(s)),
            Value::Strings(v) => {
                out.push('[');
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&string(s));
                }
                out.push(']');
            }
        }
    }
}

/// An object with its keys in the given order, on one line.
pub fn object(fields: &[(&str, Value)]) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&string(key));
        out.push(':');
        value.write(&mut out);
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_strings() {
        assert_eq!(string("plain"), r#""plain""#);
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("l1\nl2\t\r\u{1}"), r#""l1\nl2\t\r\u0001""#);
        assert_eq!(string("詰将棋"), "\"詰将棋\"");
    }

    #[test]
    fn writes_objects() {
        let o = object(&[
            ("result", Value::Str("mate".into())),
            ("length", Value::Number(3)),
            ("pv", Value::Strings(vec!["G*5b".into(), "5a4a".into()])),
            ("error", Value::Null),
        ]);
        assert_eq!(
            o,
            r#"{"result":"mate","length":3,"pv":["G*5b","5a4a"],"error":null}"#
        );
        assert_eq!(object(&[("pv", Value::Strings(vec![]))]), r#"{"pv":[]}"#);
    }
}
