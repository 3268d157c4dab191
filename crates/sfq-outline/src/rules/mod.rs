//! Per-language rules for the [walker](crate::walker): one module per
//! grammar family, each a [`LangSpec`] (a table of simple node kinds plus a
//! hook for the rest). The tables are plain data and compile whether or not
//! the grammar itself is compiled in.

mod bash;
mod c;
mod csharp;
mod go;
mod java;
mod js;
mod kotlin;
mod php;
mod python;
mod ruby;
mod rust;
mod swift;

pub(crate) use c::mask_macros as mask_c_macros;

use crate::language::Language;
use crate::walker::LangSpec;

/// The rules for `language`; `None` for the languages outlined by the
/// built-in line parsers ([`crate::formats`]), which have no grammar.
pub(crate) fn spec(language: Language) -> Option<&'static LangSpec> {
    Some(match language {
        Language::TypeScript | Language::Tsx | Language::JavaScript => &js::SPEC,
        Language::Python => &python::SPEC,
        Language::Rust => &rust::SPEC,
        Language::Go => &go::SPEC,
        Language::Java => &java::SPEC,
        Language::C => &c::C_SPEC,
        Language::Cpp => &c::CPP_SPEC,
        Language::CSharp => &csharp::SPEC,
        Language::Ruby => &ruby::SPEC,
        Language::Php => &php::SPEC,
        Language::Kotlin => &kotlin::SPEC,
        Language::Swift => &swift::SPEC,
        Language::Bash => &bash::SPEC,
        Language::Markdown | Language::Toml | Language::Yaml | Language::Json => return None,
    })
}
