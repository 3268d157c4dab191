//! Languages: the closed set this crate knows, how a file's language is
//! detected (extension, then well-known file name, then shebang), and which
//! ones have a parser in this build (a tree-sitter grammar behind a cargo
//! feature, or one of the built-in line parsers for Markdown, TOML, YAML and
//! JSON, which are always there).

use serde::{Deserialize, Serialize};

/// A language the outliner knows by name.
///
/// Serialises as its [`id`](Language::id) (`"typescript"`, `"cpp"`, …).
/// Knowing a language does not mean its parser is compiled in: see
/// [`Language::has_parser`] and the crate's `lang-*` cargo features. The
/// last four (Markdown, TOML, YAML, JSON) are outlined by small exact line
/// parsers built into the crate, so they never depend on a feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// JavaScript with JSX (`.js`, `.mjs`, `.cjs`, `.jsx`).
    JavaScript,
    /// Python (`.py`, `.pyi`, `.pyw`).
    Python,
    /// Rust (`.rs`).
    Rust,
    /// Go (`.go`).
    Go,
    /// Java (`.java`).
    Java,
    /// C (`.c`, and `.h` unless the header looks like C++).
    C,
    /// C++ (`.cc`, `.cpp`, `.cxx`, `.hpp`, …).
    Cpp,
    /// C# (`.cs`).
    CSharp,
    /// Ruby (`.rb`, `Rakefile`, `Gemfile`, …).
    Ruby,
    /// PHP (`.php`, `.phtml`).
    Php,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
    /// Swift (`.swift`).
    Swift,
    /// Bash and POSIX shell (`.sh`, `.bash`, `.zsh`, `.ksh`).
    Bash,
    /// Markdown (`.md`, `.markdown`, `.mdx`): headings as nested items.
    Markdown,
    /// TOML (`.toml`, `Cargo.lock`, `Pipfile`…): tables and keys.
    Toml,
    /// YAML (`.yml`, `.yaml`): top-level keys and the keys beneath them.
    Yaml,
    /// JSON (`.json`, `.jsonc`, `.json5`): top-level keys and the keys of
    /// their object values.
    Json,
}

/// Every language, in the order [`supported_languages`] lists them.
pub const ALL_LANGUAGES: [Language; 19] = [
    Language::TypeScript,
    Language::Tsx,
    Language::JavaScript,
    Language::Python,
    Language::Rust,
    Language::Go,
    Language::Java,
    Language::C,
    Language::Cpp,
    Language::CSharp,
    Language::Ruby,
    Language::Php,
    Language::Kotlin,
    Language::Swift,
    Language::Bash,
    Language::Markdown,
    Language::Toml,
    Language::Yaml,
    Language::Json,
];

impl Language {
    /// The stable identifier used in JSON (`"typescript"`, `"tsx"`,
    /// `"javascript"`, `"python"`, `"rust"`, `"go"`, `"java"`, `"c"`,
    /// `"cpp"`, `"csharp"`, `"ruby"`, `"php"`, `"kotlin"`, `"swift"`,
    /// `"bash"`, `"markdown"`, `"toml"`, `"yaml"`, `"json"`).
    pub fn id(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Python => "python",
            Language::Rust => "rust",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Php => "php",
            Language::Kotlin => "kotlin",
            Language::Swift => "swift",
            Language::Bash => "bash",
            Language::Markdown => "markdown",
            Language::Toml => "toml",
            Language::Yaml => "yaml",
            Language::Json => "json",
        }
    }

    /// The language whose [`id`](Language::id) is `id` (exact, lowercase).
    pub fn from_id(id: &str) -> Option<Language> {
        ALL_LANGUAGES.into_iter().find(|l| l.id() == id)
    }

    /// The human name (`"TypeScript"`, `"C++"`, …).
    pub fn display_name(self) -> &'static str {
        match self {
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::JavaScript => "JavaScript",
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::Go => "Go",
            Language::Java => "Java",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::CSharp => "C#",
            Language::Ruby => "Ruby",
            Language::Php => "PHP",
            Language::Kotlin => "Kotlin",
            Language::Swift => "Swift",
            Language::Bash => "Bash",
            Language::Markdown => "Markdown",
            Language::Toml => "TOML",
            Language::Yaml => "YAML",
            Language::Json => "JSON",
        }
    }

    /// File-name extensions (lowercase, without the dot) that select this
    /// language. Matching is case-insensitive.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::JavaScript => &["js", "mjs", "cjs", "jsx"],
            Language::Python => &["py", "pyi", "pyw"],
            Language::Rust => &["rs"],
            Language::Go => &["go"],
            Language::Java => &["java"],
            Language::C => &["c", "h"],
            Language::Cpp => {
                &["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "inl"]
            }
            Language::CSharp => &["cs"],
            Language::Ruby => &["rb", "rake", "gemspec", "ru"],
            Language::Php => &["php", "phtml"],
            Language::Kotlin => &["kt", "kts"],
            Language::Swift => &["swift"],
            Language::Bash => &["sh", "bash", "zsh", "ksh"],
            Language::Markdown => &["md", "markdown", "mdx"],
            Language::Toml => &["toml"],
            Language::Yaml => &["yml", "yaml"],
            Language::Json => &["json", "jsonc", "json5"],
        }
    }

    /// Whole file names (case-sensitive, as on disk) that select this
    /// language when the extension does not.
    pub fn file_names(self) -> &'static [&'static str] {
        match self {
            Language::Ruby => &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile", "Podfile"],
            Language::Bash => &[
                ".bashrc",
                ".bash_profile",
                ".bash_login",
                ".bash_logout",
                ".profile",
                ".zshrc",
                "PKGBUILD",
            ],
            Language::Toml => &["Cargo.lock", "Pipfile", "poetry.lock", "uv.lock"],
            _ => &[],
        }
    }

    /// Whether this build parses the language exactly: its tree-sitter
    /// grammar is compiled in (its `lang-*` cargo feature is on), or it is
    /// one of the built-in line parsers ([`Language::is_built_in`]).
    /// Without a parser, outlines of this language are approximate.
    pub fn has_parser(self) -> bool {
        self.is_built_in() || crate::grammar::grammar(self).is_some()
    }

    /// Whether the language is outlined by a line parser built into the
    /// crate (Markdown, TOML, YAML, JSON) rather than a tree-sitter grammar:
    /// always available, no cargo feature.
    pub fn is_built_in(self) -> bool {
        matches!(self, Language::Markdown | Language::Toml | Language::Yaml | Language::Json)
    }

    /// The cargo feature that compiles this language's tree-sitter parser
    /// in; `None` for the built-in line parsers ([`Language::is_built_in`]).
    pub fn cargo_feature(self) -> Option<&'static str> {
        Some(match self {
            Language::TypeScript | Language::Tsx => "lang-typescript",
            Language::JavaScript => "lang-javascript",
            Language::Python => "lang-python",
            Language::Rust => "lang-rust",
            Language::Go => "lang-go",
            Language::Java => "lang-java",
            Language::C => "lang-c",
            Language::Cpp => "lang-cpp",
            Language::CSharp => "lang-csharp",
            Language::Ruby => "lang-ruby",
            Language::Php => "lang-php",
            Language::Kotlin => "lang-kotlin",
            Language::Swift => "lang-swift",
            Language::Bash => "lang-bash",
            Language::Markdown | Language::Toml | Language::Yaml | Language::Json => return None,
        })
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One row of [`supported_languages`]: what a caller (or `--help` text)
/// needs to describe a language. Serialises with camelCase keys:
/// `{id, name, extensions, fileNames, parser}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LanguageInfo {
    /// The language.
    pub id: Language,
    /// Its human name.
    pub name: &'static str,
    /// Extensions that select it (lowercase, no dot).
    pub extensions: &'static [&'static str],
    /// Whole file names that select it.
    pub file_names: &'static [&'static str],
    /// `true` when it is parsed exactly (its tree-sitter parser is compiled
    /// in, or it is a built-in line parser); `false` means files are
    /// detected but outlined approximately.
    pub parser: bool,
}

/// Every known language with its detection rules and whether its parser is
/// compiled into this build.
pub fn supported_languages() -> Vec<LanguageInfo> {
    ALL_LANGUAGES
        .into_iter()
        .map(|l| LanguageInfo {
            id: l,
            name: l.display_name(),
            extensions: l.extensions(),
            file_names: l.file_names(),
            parser: l.has_parser(),
        })
        .collect()
}

/// Detects a file's language from its path and, failing that, its first
/// line (a shebang such as `#!/usr/bin/env python3`).
///
/// - The extension (the text after the last `.` of the base name, compared
///   case-insensitively) wins; `.d.ts` is TypeScript.
/// - Then a known whole file name (`Rakefile`, `.bashrc`, …).
/// - Then a shebang: the interpreter is the first word after `#!`, or the
///   first non-option word after `env` (`#!/usr/bin/env -S deno run`);
///   version suffixes are ignored (`python3.11`). `node`, `nodejs` →
///   JavaScript; `deno`, `bun`, `ts-node`, `tsx` → TypeScript; `python*`,
///   `pypy*` → Python; `sh`, `bash`, `dash`, `zsh`, `ksh`, `ash`, `mksh` →
///   Bash; `ruby`, `php`, `swift`, `kotlin`/`kscript` likewise.
///
/// `first_line` may be the whole text: only up to the first newline is read.
/// Both Windows and POSIX separators are accepted in `path`.
pub fn detect_language(path: &str, first_line: &str) -> Option<Language> {
    by_path(path).or_else(|| by_shebang(first_line))
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The language selected by `path`'s extension or whole name.
pub(crate) fn by_path(path: &str) -> Option<Language> {
    let base = base_name(path);
    if let Some(dot) = base.rfind('.')
        && dot + 1 < base.len()
    {
        let ext = base[dot + 1..].to_ascii_lowercase();
        if let Some(l) = ALL_LANGUAGES.into_iter().find(|l| l.extensions().contains(&ext.as_str()))
        {
            return Some(l);
        }
    }
    ALL_LANGUAGES.into_iter().find(|l| l.file_names().contains(&base))
}

/// The language named by a shebang line, if `first_line` is one.
pub(crate) fn by_shebang(first_line: &str) -> Option<Language> {
    let line = first_line.strip_prefix('\u{feff}').unwrap_or(first_line);
    let line = line.split('\n').next().unwrap_or("");
    let rest = line.strip_prefix("#!")?;
    let mut words = rest.split_whitespace();
    let mut interpreter = base_name(words.next()?);
    if interpreter == "env" {
        interpreter = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
        interpreter = base_name(interpreter);
    }
    let name = interpreter.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    Some(match name {
        "node" | "nodejs" => Language::JavaScript,
        "deno" | "bun" | "ts-node" | "tsx" => Language::TypeScript,
        "python" | "pypy" => Language::Python,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" | "mksh" => Language::Bash,
        "ruby" | "jruby" => Language::Ruby,
        "php" => Language::Php,
        "swift" => Language::Swift,
        "kotlin" | "kscript" => Language::Kotlin,
        _ => return None,
    })
}

/// Whether a `.h` header's text looks like C++ rather than C (a class with a
/// body, a namespace, a template, an access specifier or `extern "C++"`).
/// Only the first 64 KiB are examined.
pub(crate) fn header_looks_like_cpp(text: &str) -> bool {
    let mut end = text.len().min(64 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    for line in text[..end].lines() {
        let t = line.trim_start();
        if t.starts_with("template<")
            || t.starts_with("template <")
            || t.starts_with("namespace ")
            || t.starts_with("public:")
            || t.starts_with("private:")
            || t.starts_with("protected:")
            || t.starts_with("using namespace ")
            || t.starts_with("extern \"C++\"")
        {
            return true;
        }
        if let Some(after) = t.strip_prefix("class ")
            && !after.trim_end().ends_with(';')
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_case_insensitive() {
        assert_eq!(detect_language("src/A.TS", ""), Some(Language::TypeScript));
        assert_eq!(detect_language("x.d.ts", ""), Some(Language::TypeScript));
        assert_eq!(detect_language("x.MJS", ""), Some(Language::JavaScript));
        assert_eq!(detect_language("x.cjs", ""), Some(Language::JavaScript));
        assert_eq!(detect_language("x.jsx", ""), Some(Language::JavaScript));
        assert_eq!(detect_language("C:\\src\\main.Rs", ""), Some(Language::Rust));
        assert_eq!(detect_language("a.h", ""), Some(Language::C));
        assert_eq!(detect_language("a.hpp", ""), Some(Language::Cpp));
        assert_eq!(detect_language("Rakefile", ""), Some(Language::Ruby));
        assert_eq!(detect_language("dir.d/.bashrc", ""), Some(Language::Bash));
        assert_eq!(detect_language("README", ""), None);
        assert_eq!(detect_language("README.md", ""), Some(Language::Markdown));
        assert_eq!(detect_language("docs/Intro.MDX", ""), Some(Language::Markdown));
        assert_eq!(detect_language("x.markdown", ""), Some(Language::Markdown));
        assert_eq!(detect_language("Cargo.toml", ""), Some(Language::Toml));
        assert_eq!(detect_language("Cargo.lock", ""), Some(Language::Toml));
        assert_eq!(detect_language("yarn.lock", ""), None);
        assert_eq!(detect_language(".github/workflows/ci.yml", ""), Some(Language::Yaml));
        assert_eq!(detect_language("a.YAML", ""), Some(Language::Yaml));
        assert_eq!(detect_language("package.json", ""), Some(Language::Json));
        assert_eq!(detect_language("tsconfig.jsonc", ""), Some(Language::Json));
        assert_eq!(detect_language("x.json5", ""), Some(Language::Json));
        assert_eq!(detect_language("archive.", ""), None);
        assert_eq!(detect_language("notes.txt", "#!/bin/sh"), Some(Language::Bash));
    }

    #[test]
    fn extension_wins_over_shebang() {
        assert_eq!(detect_language("a.py", "#!/usr/bin/env node"), Some(Language::Python));
    }

    #[test]
    fn shebangs() {
        let cases = [
            ("#!/usr/bin/env python3", Some(Language::Python)),
            ("#!/usr/bin/python3.11 -u", Some(Language::Python)),
            ("#!/usr/bin/env node\nconsole.log(1)", Some(Language::JavaScript)),
            ("#!/usr/bin/env -S deno run --allow-read", Some(Language::TypeScript)),
            ("#!/usr/bin/env -S NODE_OPTIONS=x bun", Some(Language::TypeScript)),
            ("#!/bin/bash -e", Some(Language::Bash)),
            ("#! /bin/sh", Some(Language::Bash)),
            ("\u{feff}#!/usr/bin/env ruby", Some(Language::Ruby)),
            ("#!/usr/bin/env perl", None),
            ("#!/usr/bin/env", None),
            ("#!", None),
            ("# not a shebang", None),
            ("", None),
        ];
        for (line, want) in cases {
            assert_eq!(detect_language("script", line), want, "{line:?}");
        }
    }

    #[test]
    fn ids_round_trip() {
        for l in ALL_LANGUAGES {
            assert_eq!(Language::from_id(l.id()), Some(l));
            assert_eq!(serde_json::to_string(&l).unwrap(), format!("\"{}\"", l.id()));
        }
        assert_eq!(Language::from_id("TypeScript"), None);
    }

    #[test]
    fn every_extension_belongs_to_one_language() {
        let mut seen = std::collections::HashSet::new();
        for l in ALL_LANGUAGES {
            for e in l.extensions() {
                assert!(seen.insert(*e), "duplicate extension {e}");
                assert_eq!(by_path(&format!("x.{e}")), Some(l));
            }
        }
    }

    #[test]
    fn cpp_headers() {
        assert!(header_looks_like_cpp("#pragma once\nnamespace foo {\n}\n"));
        assert!(header_looks_like_cpp("class A {\n public:\n};\n"));
        assert!(header_looks_like_cpp("template <typename T> T f();\n"));
        assert!(!header_looks_like_cpp("struct A { int x; };\nclass B;\nint f(void);\n"));
        assert!(!header_looks_like_cpp(""));
    }

    #[test]
    fn supported_list_is_complete() {
        let list = supported_languages();
        assert_eq!(list.len(), ALL_LANGUAGES.len());
        #[cfg(feature = "lang-typescript")]
        assert!(list[0].parser);
        let json = serde_json::to_value(&list[0]).unwrap();
        assert!(json.get("fileNames").is_some());
        for info in &list {
            assert_eq!(info.id.is_built_in(), info.id.cargo_feature().is_none(), "{}", info.id);
            if info.id.is_built_in() {
                assert!(info.parser, "{}", info.id);
            }
        }
    }
}
