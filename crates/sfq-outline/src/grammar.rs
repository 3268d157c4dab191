//! The tree-sitter grammars compiled into this build, one cargo feature
//! each (`lang-typescript`, …; see the crate's `Cargo.toml`).

use crate::language::Language;

/// The tree-sitter grammar for `language`, or `None` when its `lang-*`
/// feature is off in this build.
pub(crate) fn grammar(language: Language) -> Option<tree_sitter::Language> {
    language_fn(language).map(tree_sitter::Language::new)
}

/// The grammar's constructor, when its feature is on.
#[allow(clippy::match_single_binding)]
fn language_fn(language: Language) -> Option<tree_sitter_language::LanguageFn> {
    match language {
        #[cfg(feature = "lang-typescript")]
        Language::TypeScript => Some(tree_sitter_typescript::LANGUAGE_TYPESCRIPT),
        #[cfg(feature = "lang-typescript")]
        Language::Tsx => Some(tree_sitter_typescript::LANGUAGE_TSX),
        #[cfg(feature = "lang-javascript")]
        Language::JavaScript => Some(tree_sitter_javascript::LANGUAGE),
        #[cfg(feature = "lang-python")]
        Language::Python => Some(tree_sitter_python::LANGUAGE),
        #[cfg(feature = "lang-rust")]
        Language::Rust => Some(tree_sitter_rust::LANGUAGE),
        #[cfg(feature = "lang-go")]
        Language::Go => Some(tree_sitter_go::LANGUAGE),
        #[cfg(feature = "lang-java")]
        Language::Java => Some(tree_sitter_java::LANGUAGE),
        #[cfg(feature = "lang-c")]
        Language::C => Some(tree_sitter_c::LANGUAGE),
        #[cfg(feature = "lang-cpp")]
        Language::Cpp => Some(tree_sitter_cpp::LANGUAGE),
        #[cfg(feature = "lang-csharp")]
        Language::CSharp => Some(tree_sitter_c_sharp::LANGUAGE),
        #[cfg(feature = "lang-ruby")]
        Language::Ruby => Some(tree_sitter_ruby::LANGUAGE),
        #[cfg(feature = "lang-php")]
        Language::Php => Some(tree_sitter_php::LANGUAGE_PHP),
        #[cfg(feature = "lang-kotlin")]
        Language::Kotlin => Some(tree_sitter_kotlin_ng::LANGUAGE),
        #[cfg(feature = "lang-swift")]
        Language::Swift => Some(tree_sitter_swift::LANGUAGE),
        #[cfg(feature = "lang-bash")]
        Language::Bash => Some(tree_sitter_bash::LANGUAGE),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}
