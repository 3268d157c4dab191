//! Every API's option table in one list, and what is generated from it:
//! `lib/generated/options.js`, which the MCP tools build their input schemas,
//! their argument names and the options they pass from, and
//! `lib/generated/api.js`, the module's exports of the queries (the tests at
//! the end fail when a committed file is not what the tables give;
//! `SFQ_BLESS=1 cargo test -p sfq-core generated` rewrites them).

use super::spec::{Dflt, Kind, OptSpec, Split};
use crate::{excludes, session};

/// How an API's MCP tool writes its schema (each seed has its style).
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// The tool's name.
    pub name: &'static str,
    /// The JSON-schema type of integers: `integer`, or `number` (seed 002).
    pub integer: &'static str,
    /// Whether a list may also be given as one string (seed 000) or must
    /// be an array.
    pub string_or_list: bool,
}

/// An API: its name, its option table and its MCP tool (`openSession` has
/// none).
#[derive(Debug, Clone, Copy)]
pub struct Api {
    /// The JS API's function name.
    pub name: &'static str,
    /// Its options.
    pub table: &'static [OptSpec],
    /// Its MCP tool, if it has one.
    pub tool: Option<Tool>,
}

const fn tool(name: &'static str, integer: &'static str, string_or_list: bool) -> Option<Tool> {
    Some(Tool { name, integer, string_or_list })
}

/// The APIs whose options are declared in a table: every command with one
/// (`Command::table`), and `openSession`.
fn apis() -> Vec<Api> {
    let mut apis: Vec<Api> = crate::Command::ALL
        .iter()
        .filter_map(|&(command, name)| {
            Some(Api { name, table: command.table()?, tool: tool_of(name) })
        })
        .collect();
    apis.push(Api { name: "openSession", table: session::SESSION_OPTIONS, tool: None });
    apis
}

/// An API's MCP tool and its schema style.
fn tool_of(api: &'static str) -> Option<Tool> {
    match api {
        "smartFileQuery" => tool("smart_file_query", "integer", true),
        "searchCode" => tool("search_code", "integer", false),
        "grep" => tool("grep", "number", false),
        "findFiles" => tool("find_files", "number", false),
        "globFiles" => tool("glob_files", "integer", false),
        "grepContent" => tool("grep_content", "integer", false),
        "getOutline" => tool("view_outline", "integer", false),
        "survey" | "scout" | "sample" | "show" => tool(api, "integer", false),
        _ => None,
    }
}

/// A JSON string.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A JSON object of already-rendered values, in the given order.
fn object(pairs: &[(&str, String)]) -> String {
    let body: Vec<String> = pairs.iter().map(|(k, v)| format!("{}: {v}", q(k))).collect();
    format!("{{ {} }}", body.join(", "))
}

fn strings(values: &[&str]) -> String {
    let items: Vec<String> = values.iter().map(|v| q(v)).collect();
    format!("[{}]", items.join(", "))
}

/// One option as the generated module describes it.
fn option(o: &OptSpec) -> String {
    let mut pairs: Vec<(&str, String)> = vec![("name", q(o.name))];
    match o.kind {
        Kind::Str => pairs.push(("type", q("string"))),
        Kind::Bool => pairs.push(("type", q("boolean"))),
        Kind::List => pairs.push(("type", q("list"))),
        Kind::Int(min, max) => {
            pairs.push(("type", q("integer")));
            pairs.push(("min", min.to_string()));
            // Beyond 2^53 a JS number is not exact: no upper bound then.
            if max < (1 << 53) {
                pairs.push(("max", max.to_string()));
            }
        }
        Kind::OneOf(values) => {
            pairs.push(("type", q("string")));
            pairs.push(("values", strings(values)));
        }
    }
    match o.default {
        Dflt::None => {}
        Dflt::Bool(b) => pairs.push(("default", b.to_string())),
        Dflt::Int(n) => pairs.push(("default", n.to_string())),
        Dflt::Str(s) => pairs.push(("default", q(s))),
        Dflt::Prose(words) => pairs.push(("defaultText", q(words))),
    }
    pairs.push(("doc", q(o.doc)));
    if let Some(m) = o.mcp {
        pairs.push(("mcp", q(m.name)));
    }
    if let Some(c) = o.cli {
        let split = match c.split {
            Split::Each => "each",
            Split::Comma => "comma",
            Split::Globs => "globs",
        };
        let mut cli = vec![("flag", q(c.flag)), ("value", q(c.value)), ("doc", q(c.doc))];
        if o.kind == Kind::List {
            cli.push(("split", q(split)));
        }
        pairs.push(("cli", object(&cli)));
    }
    object(&pairs)
}

/// The JSON schema of an option as `tool` takes it.
fn schema(o: &OptSpec, tool: &Tool) -> Option<String> {
    let m = o.mcp?;
    let list = object(&[("type", q("array")), ("items", object(&[("type", q("string"))]))]);
    let mut pairs: Vec<(&str, String)> = match o.kind {
        Kind::Str => vec![("type", q("string"))],
        Kind::Bool => vec![("type", q("boolean"))],
        Kind::Int(..) => vec![("type", q(tool.integer))],
        Kind::List if tool.string_or_list => {
            vec![("anyOf", format!("[{}, {list}]", object(&[("type", q("string"))])))]
        }
        Kind::List => vec![("type", q("array")), ("items", object(&[("type", q("string"))]))],
        Kind::OneOf(values) => {
            vec![("type", q("string")), ("enum", strings(m.values.unwrap_or(values)))]
        }
    };
    pairs.push(("description", q(m.doc)));
    Some(object(&pairs))
}

/// `lib/generated/options.js` as the tables give it.
pub fn render_js() -> String {
    let mut out = String::from(
        "// Generated from the option tables of crates/sfq-core (src/options/catalog.rs): do not edit.\n\
         // `SFQ_BLESS=1 cargo test -p sfq-core generated` rewrites it; `cargo test` fails while it differs.\n\
         'use strict';\n\n\
         /**\n \
         * Per API: its MCP tool, its options in table order (name; type `string`, `boolean`,\n \
         * `integer` with `min`/`max`, `list` (a string or an array of strings), or `string` with\n \
         * `values`; `default`, or `defaultText` when the default is not one value; `doc`; `mcp`,\n \
         * the tool's argument name when the tool takes it) and the tool's input schema properties.\n \
         */\n\
         exports.OPTIONS = {\n",
    );
    for api in apis() {
        out.push_str(&format!(
            "  {}: {{\n    tool: {},\n    options: [\n",
            api.name,
            api.tool.map_or("null".to_string(), |t| q(t.name))
        ));
        for o in api.table {
            out.push_str(&format!("      {},\n", option(o)));
        }
        out.push_str("    ],\n");
        if let Some(tool) = &api.tool {
            out.push_str("    schema: {\n");
            for o in api.table {
                if let (Some(m), Some(s)) = (o.mcp, schema(o, tool)) {
                    out.push_str(&format!("      {}: {s},\n", q(m.name)));
                }
            }
            out.push_str("    },\n");
        }
        out.push_str("  },\n");
    }
    out.push_str("};\n\n/** Each API's default exclusions (crates/sfq-core/src/excludes.rs). */\nexports.EXCLUDES = {\n");
    for (api, list) in EXCLUDES {
        out.push_str(&format!("  {api}: {},\n", strings(list)));
    }
    out.push_str("};\n");
    out
}

/// `lib/generated/api.js`: the module's queries, each with its `…Sync`
/// twin, one export per line (every command with an option table).
pub fn render_api_js() -> String {
    let mut out = String::from(
        "// Generated from the commands of crates/sfq-core (Command::ALL, src/options/catalog.rs): do not edit.\n\
         // `SFQ_BLESS=1 cargo test -p sfq-core generated` rewrites it; `cargo test` fails while it differs.\n\
         'use strict';\n\n\
         // Each export is written out (not assigned in a loop): Node's CommonJS\n\
         // named-export detection, which `import { sample } from 'smart-file-query'`\n\
         // relies on, sees only `exports.name = …` assignments (index.js spreads them).\n\n\
         const { queries } = require('../queries.js');\n\n\
         /** The module's queries: cold calls, each reading the tree anew. */\n\
         const cold = queries(undefined);\n\n",
    );
    for (command, name) in crate::Command::ALL {
        if command.table().is_some() {
            out.push_str(&format!(
                "exports.{name} = cold.{name};\nexports.{name}Sync = cold.{name}Sync;\n"
            ));
        }
    }
    out
}

/// Each API's default exclusions.
const EXCLUDES: &[(&str, &[&str])] = &[
    ("smartFileQuery", excludes::SEED000_IGNORE),
    ("survey", excludes::SEED001),
    ("scout", excludes::SEED001),
    ("sample", excludes::SEED001),
    ("show", excludes::SEED001),
    ("grep", excludes::SEED002),
    ("findFiles", excludes::SEED002),
    ("searchCode", excludes::SEED003),
    ("globFiles", excludes::SEED004),
    ("grepContent", excludes::SEED004),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn generated_path(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lib/generated").join(name)
    }

    /// `want` is what the committed file `name` holds (written first with
    /// `SFQ_BLESS`).
    fn committed(name: &str, want: &str) {
        let path = generated_path(name);
        if std::env::var_os("SFQ_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} is not what the option tables give: run `SFQ_BLESS=1 cargo test -p sfq-core generated` and commit it",
            path.display()
        );
    }

    #[test]
    fn generated_options_module_is_what_the_tables_give() {
        committed("options.js", &render_js());
    }

    #[test]
    fn generated_api_module_is_what_the_commands_give() {
        committed("api.js", &render_api_js());
    }

    /// The texts that state a default (the doc, the MCP description)
    /// state the declared one.
    #[test]
    fn prose_states_the_declared_defaults() {
        for api in apis() {
            for o in api.table {
                let spelled: Vec<String> = match o.default {
                    Dflt::Int(n) if n >= 1 << 20 && n % (1 << 20) == 0 => {
                        vec![format!("{} MiB", n >> 20), n.to_string()]
                    }
                    Dflt::Int(n) => vec![n.to_string()],
                    Dflt::Bool(b) => vec![b.to_string()],
                    Dflt::Str("") => vec!["''".into()],
                    Dflt::Str(s) => vec![s.to_string()],
                    Dflt::None | Dflt::Prose(_) => continue,
                };
                let texts =
                    std::iter::once(o.doc).chain(o.mcp.map(|m| m.doc)).chain(o.cli.map(|c| c.doc));
                for text in texts {
                    if text.to_lowercase().contains("default") {
                        assert!(
                            spelled.iter().any(|s| text.contains(s.as_str())),
                            "{}.{}: {text:?} does not state the declared default {:?}",
                            api.name,
                            o.name,
                            o.default
                        );
                    }
                }
            }
        }
    }

    /// Each option is declared once per API, and each MCP argument name
    /// once per tool.
    #[test]
    fn names_are_unique() {
        for api in apis() {
            let mut names: Vec<&str> = api.table.iter().map(|o| o.name).collect();
            let mut args: Vec<&str> =
                api.table.iter().filter_map(|o| o.mcp.map(|m| m.name)).collect();
            let (n, a) = (names.len(), args.len());
            names.sort_unstable();
            names.dedup();
            args.sort_unstable();
            args.dedup();
            assert_eq!((names.len(), args.len()), (n, a), "{}", api.name);
        }
    }
}
