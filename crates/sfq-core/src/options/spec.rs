//! The one declaration of an option: its name, type and bounds, default, a
//! one-line doc, and how the MCP tool spells and describes it. The checks
//! (`RawOptions::parse_table`), the defaults the code uses
//! (`RawOptions::int_default`), the MCP tools' input schemas and the
//! argument names of their errors (`lib/generated/options.js`, rendered by
//! `catalog`) all come from these tables.

/// The type (and bounds) of an option in an API's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    Str,
    /// A boolean.
    Bool,
    /// An integer within `min..=max`.
    Int(u64, u64),
    /// A string or an array of strings.
    List,
    /// One of these strings.
    OneOf(&'static [&'static str]),
}

/// An option's default: what the API does when it is not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dflt {
    /// Not given means not used (no filter, no limit, the whole root).
    None,
    /// This boolean.
    Bool(bool),
    /// This integer.
    Int(u64),
    /// This string.
    Str(&'static str),
    /// A default that is not one value (smart case, the machine's
    /// parallelism, a share of the call's time), in words.
    Prose(&'static str),
}

/// How an MCP tool takes an option: the argument's name and description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mcp {
    /// The argument's name (the tool's style: snake_case or camelCase).
    pub name: &'static str,
    /// The argument's description in the tool's input schema.
    pub doc: &'static str,
    /// For a [`Kind::OneOf`] option: the values the tool offers, when fewer
    /// than the API takes (the API explains why it refuses the others).
    pub values: Option<&'static [&'static str]>,
}

/// How a value given several times, or with commas, makes a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Each value is one item.
    Each,
    /// Values are comma-separated items (trimmed, empty ones dropped).
    Comma,
    /// Values are comma-separated globs (a comma inside braces or a class
    /// stays).
    Globs,
}

/// How a CLI subcommand takes an option: its flag, the value's placeholder
/// and the usage's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cli {
    /// `--max-results`.
    pub flag: &'static str,
    /// `<n>`; empty for a boolean flag.
    pub value: &'static str,
    /// The usage's text for the flag.
    pub doc: &'static str,
    /// For a list: how values make items.
    pub split: Split,
}

/// One option of an API.
#[derive(Debug, Clone, Copy)]
pub struct OptSpec {
    /// The camelCase name.
    pub name: &'static str,
    /// Type and bounds.
    pub kind: Kind,
    /// One line saying what it does.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the generator (`catalog`), a test"))]
    pub doc: &'static str,
    /// The default.
    pub default: Dflt,
    /// The MCP tool's argument, when the tool offers the option.
    pub mcp: Option<Mcp>,
    /// The CLI subcommand's flag, when the subcommand offers the option.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the generator (`catalog`), a test"))]
    pub cli: Option<Cli>,
}

/// Shorthand for a table row (no default, not an MCP argument).
pub const fn opt(name: &'static str, kind: Kind, doc: &'static str) -> OptSpec {
    OptSpec { name, kind, doc, default: Dflt::None, mcp: None, cli: None }
}

impl OptSpec {
    /// With an integer default.
    pub const fn default_int(self, value: u64) -> OptSpec {
        OptSpec { default: Dflt::Int(value), ..self }
    }

    /// With a boolean default.
    pub const fn default_bool(self, value: bool) -> OptSpec {
        OptSpec { default: Dflt::Bool(value), ..self }
    }

    /// With a string default.
    pub const fn default_str(self, value: &'static str) -> OptSpec {
        OptSpec { default: Dflt::Str(value), ..self }
    }

    /// With a default described in words.
    pub const fn default_prose(self, words: &'static str) -> OptSpec {
        OptSpec { default: Dflt::Prose(words), ..self }
    }

    /// Offered by the API's MCP tool as `name`, described by `doc`.
    pub const fn mcp(self, name: &'static str, doc: &'static str) -> OptSpec {
        OptSpec { mcp: Some(Mcp { name, doc, values: None }), ..self }
    }

    /// Offered by the API's MCP tool under its own name, described by `doc`.
    pub const fn mcp_same(self, doc: &'static str) -> OptSpec {
        OptSpec { mcp: Some(Mcp { name: self.name, doc, values: None }), ..self }
    }

    /// Offered by the API's CLI subcommand as `flag` (a boolean flag, or
    /// one taking `value`), described by `doc` in its usage.
    pub const fn cli(self, flag: &'static str, value: &'static str, doc: &'static str) -> OptSpec {
        OptSpec { cli: Some(Cli { flag, value, doc, split: Split::Each }), ..self }
    }

    /// A list offered by the CLI subcommand as `flag`, its values split as
    /// `split` says.
    pub const fn cli_list(
        self,
        flag: &'static str,
        value: &'static str,
        split: Split,
        doc: &'static str,
    ) -> OptSpec {
        OptSpec { cli: Some(Cli { flag, value, doc, split }), ..self }
    }

    /// Offered by the MCP tool with only these of its values.
    pub const fn mcp_values(self, values: &'static [&'static str]) -> OptSpec {
        match self.mcp {
            Some(m) => OptSpec { mcp: Some(Mcp { values: Some(values), ..m }), ..self },
            None => self,
        }
    }
}

/// The row of `table` named `key`.
pub fn find<'t>(table: &'t [OptSpec], key: &str) -> Option<&'t OptSpec> {
    table.iter().find(|o| o.name == key)
}

/// `'a', 'b' or 'c'`: the values as messages list them.
pub fn one_of_words(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}
