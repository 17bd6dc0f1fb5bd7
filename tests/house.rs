//! The repository's layout rules: "no source file is over 1,500 lines (the generated ids
//! aside), and no modules import each other in a cycle". Both are checked on the text of
//! `src/`, with plain std, so that a long file or a cycle fails `cargo test` where it is made
//! instead of being found in review.
//!
//! The module graph is read from the source, not from the compiler:
//! - every `.rs` file under `src/` is a module (`foo/mod.rs` is `foo`, `lib.rs` the crate root);
//! - an edge A -> B is a path in A that names module B: `use crate::…`, `use super::…`,
//!   `use self::…` (grouped `{…}` trees and `pub use` included) and `crate::…`, `super::…`,
//!   `self::…` paths written in code. Comments, strings and `#[cfg(test)] mod … { … }` blocks
//!   (and `#[cfg(all(test, …))]`) are skipped: a test module importing its parent is fine;
//! - a path resolves to the deepest module file it names, following the `use` items
//!   (re-exports) of the modules on its way: `super::Value` in a child of `ir` is `ir::body`
//!   when `ir/mod.rs` has `pub use body::Value`, and `crate::Error` is `error`;
//! - a parent declaring and re-exporting its descendants (`mod x; pub use x::Y;`, `pub(crate)`
//!   and other `pub(…)` too) is the module tree, not an import, and makes no edge: counting it
//!   would make every `super::Y` import a cycle. A parent's private `use x::…`, or a
//!   `crate::…`/`self::…` path into a descendant in its code, is its own dependency and does
//!   count: a `mod.rs` whose code uses a child that uses the `mod.rs`'s items is a cycle as
//!   much as two siblings are. Edges to ancestors count.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// The most lines a source file may have.
const MAX_LINES: usize = 1500;
/// Files exempt from [`MAX_LINES`] (relative to the manifest directory).
const EXEMPT: &[&str] = &["src/ids/generated.rs"];

/// Every `.rs` file under `src/`: its path relative to `src/` (with `/`) and its text.
fn source_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let rel = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if path.is_dir() {
                walk(&path, &rel, out);
            } else if rel.ends_with(".rs") {
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), "", &mut out);
    out
}

#[test]
fn no_source_file_is_over_1500_lines() {
    let long: Vec<String> = source_files()
        .iter()
        .map(|(rel, text)| (format!("src/{rel}"), text.lines().count()))
        .filter(|(path, n)| *n > MAX_LINES && !EXEMPT.contains(&path.as_str()))
        .map(|(path, n)| format!("  {path}: {n} lines"))
        .collect();
    assert!(long.is_empty(), "{} source files are over {MAX_LINES} lines:\n{}", long.len(), long.join("\n"));
}

#[test]
fn no_module_import_cycles() {
    let (tangles, cycles) = Crate::new(&source_files()).cycles();
    assert!(
        cycles.is_empty(),
        "{} groups of modules import each other:\n{}\n{} cycles cover every import inside them:\n{}",
        tangles.len(),
        tangles.join("\n"),
        cycles.len(),
        cycles.join("\n")
    );
}

/// A module's path from the crate root (`[]` is the root).
type ModPath = Vec<String>;

/// One token of source text, with its line; comments, strings and lifetimes are dropped.
struct Tok {
    text: String,
    line: usize,
}

/// Identifiers, `::` and single punctuation characters of `src`.
fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    // Advances past `c[i..end]`, counting its newlines.
    let skip_to = |i: &mut usize, line: &mut usize, end: usize| {
        let end = end.min(c.len());
        *line += c[*i..end].iter().filter(|&&ch| ch == '\n').count();
        *i = end;
    };
    let find = |from: usize, pat: &[char]| (from..c.len()).find(|&k| c[k..].starts_with(pat)).unwrap_or(c.len());
    while i < c.len() {
        let ch = c[i];
        let rest = &c[i..];
        if rest.starts_with(&['/', '/']) {
            let end = find(i, &['\n']);
            skip_to(&mut i, &mut line, end);
        } else if rest.starts_with(&['/', '*']) {
            let mut depth = 0;
            let mut k = i;
            while k < c.len() {
                if c[k..].starts_with(&['/', '*']) {
                    depth += 1;
                    k += 2;
                } else if c[k..].starts_with(&['*', '/']) {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            skip_to(&mut i, &mut line, k);
        } else if ch == 'r'
            && matches!(rest.get(1), Some('"' | '#'))
            && rest[1..].iter().find(|&&x| x != '#') == Some(&'"')
        {
            // A raw string, `r#"…"#`: it ends at a quote followed by as many `#`.
            let hashes = rest[1..].iter().take_while(|&&x| x == '#').count();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = find(i + 2 + hashes, &close) + close.len();
            skip_to(&mut i, &mut line, end);
        } else if ch == '"' {
            let mut k = i + 1;
            while k < c.len() && c[k] != '"' {
                k += if c[k] == '\\' { 2 } else { 1 };
            }
            skip_to(&mut i, &mut line, k + 1);
        } else if ch == '\'' {
            // A char literal (`'x'`, `'\n'`, `'\u{1F}'`) or a lifetime (`'a`), dropped either way.
            let end = if rest.get(1) == Some(&'\\') {
                find(i + 3, &['\'']) + 1
            } else if rest.get(2) == Some(&'\'') {
                i + 3
            } else {
                i + 1
            };
            skip_to(&mut i, &mut line, end);
        } else if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let len = rest.iter().take_while(|x| x.is_alphanumeric() || **x == '_').count();
            out.push(Tok { text: rest[..len].iter().collect(), line });
            i += len;
        } else if rest.starts_with(&[':', ':']) {
            out.push(Tok { text: "::".into(), line });
            i += 2;
        } else {
            out.push(Tok { text: ch.to_string(), line });
            i += 1;
        }
    }
    out
}

/// One path of a file: as written, the name it binds (`None` for a glob or a path in code),
/// its line, the inline `mod x { … }` it is in, whether it is a `use` at the level of that
/// module (which children see through `super::`), and whether that `use` is `pub`/`pub(…)`.
struct Named {
    path: Vec<String>,
    binds: Option<String>,
    line: usize,
    scope: Vec<String>,
    item: bool,
    public: bool,
}

/// Parses one `use` tree at `toks[*i]` under `path` (its prefix), pushing its leaves.
fn use_tree(toks: &[Tok], i: &mut usize, mut path: Vec<String>, out: &mut Vec<Named>) {
    let at = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    loop {
        let line = toks.get(*i).map_or(0, |t| t.line);
        match at(*i) {
            "" | ";" | "}" | "," => return,
            "{" => {
                *i += 1;
                while !matches!(at(*i), "}" | "" | ";") {
                    use_tree(toks, i, path.clone(), out);
                    if at(*i) == "," {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                return out.push(Named { path, binds: None, line, scope: Vec::new(), item: false, public: false });
            }
            "::" => *i += 1,
            seg => {
                *i += 1;
                if at(*i) == "::" {
                    path.push(seg.to_string());
                    continue;
                }
                if seg != "self" {
                    path.push(seg.to_string());
                }
                let mut binds = path.last().cloned();
                if at(*i) == "as" {
                    binds = Some(at(*i + 1).to_string()).filter(|b| b != "_");
                    *i += 2;
                }
                return out.push(Named { path, binds, line, scope: Vec::new(), item: false, public: false });
            }
        }
    }
}

/// Every path of a file that may name a module: the leaves of its `use` trees, and the
/// `crate::`, `super::` and `self::` paths written in code. `#[cfg(test)] mod` blocks are skipped.
fn named_paths(src: &str) -> Vec<Named> {
    let toks = tokens(src);
    let at = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let (mut out, mut i, mut depth) = (Vec::new(), 0, 0);
    // The inline modules open at `i`, each with the brace depth of its body.
    let mut scope: Vec<(String, usize)> = Vec::new();
    while i < toks.len() {
        // `#[cfg(test)]`, `#[cfg(all(test, …))]` (not `not(test)`) on a `mod`.
        let cfg_end = (at(i) == "#" && at(i + 1) == "[" && at(i + 2) == "cfg")
            .then(|| (i..toks.len()).find(|&k| at(k) == "]").unwrap_or(toks.len()));
        let test_mod = cfg_end.is_some_and(|end| {
            let cfg: Vec<&str> = (i..end).map(at).collect();
            let mut item = end + 1;
            if at(item) == "pub" {
                item += if at(item + 1) == "(" { 4 } else { 1 }; // `pub`, `pub(crate)`
            }
            cfg.contains(&"test") && !cfg.contains(&"not") && at(item) == "mod"
        });
        if test_mod {
            // Skips to the module's `{` (or `;`), then to its matching `}`.
            while !matches!(at(i), "{" | ";" | "") {
                i += 1;
            }
            let mut d = 0;
            while i < toks.len() {
                d += match at(i) {
                    "{" => 1,
                    "}" => -1,
                    _ => 0,
                };
                i += 1;
                if d <= 0 {
                    break;
                }
            }
            continue;
        }
        let names = || scope.iter().map(|(name, _)| name.clone()).collect::<Vec<_>>();
        match at(i) {
            "mod" if at(i + 2) == "{" => scope.push((at(i + 1).to_string(), depth + 1)),
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if scope.last().is_some_and(|&(_, d)| d > depth) {
                    scope.pop();
                }
            }
            "use" => {
                let start = out.len();
                let public = matches!(at(i.wrapping_sub(1)), "pub" | ")");
                i += 1;
                use_tree(&toks, &mut i, Vec::new(), &mut out);
                for n in &mut out[start..] {
                    n.scope = names();
                    n.public = public;
                    n.item = depth == scope.last().map_or(0, |&(_, d)| d);
                }
                continue;
            }
            "crate" | "super" | "self" if at(i + 1) == "::" && !matches!(at(i.wrapping_sub(1)), "$" | "::") => {
                let line = toks[i].line;
                let mut path = vec![at(i).to_string()];
                while at(i + 1) == "::"
                    && toks.get(i + 2).is_some_and(|t| t.text.starts_with(|c: char| c.is_alphabetic() || c == '_'))
                {
                    path.push(at(i + 2).to_string());
                    i += 2;
                }
                out.push(Named { path, binds: None, line, scope: names(), item: false, public: false });
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The library's modules, with what each names.
struct Crate {
    /// Each module file's path (relative to the manifest directory) and paths.
    modules: BTreeMap<ModPath, (String, Vec<Named>)>,
    /// Every module, inline `mod x { … }` ones too.
    scopes: BTreeSet<ModPath>,
    /// Each module's module-level `use` names, resolved to absolute paths; under `*`, its
    /// first glob import of a module other than its ancestors (`use super::*` is no re-export).
    imports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
}

impl Crate {
    /// `files` are paths relative to `src/` with their text.
    fn new(files: &[(String, String)]) -> Crate {
        let mut modules = BTreeMap::new();
        for (rel, text) in files {
            let mut m: ModPath = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
            if m.last().is_some_and(|s| s == "mod") || m == ["lib"] {
                m.pop();
            }
            modules.insert(m, (format!("src/{rel}"), named_paths(text)));
        }
        let scoped = |m: &ModPath, n: &Named| m.iter().chain(&n.scope).cloned().collect::<ModPath>();
        let scopes = modules.iter().flat_map(|(m, (_, named))| named.iter().map(|n| scoped(m, n))).collect();
        let mut krate = Crate { scopes, modules, imports: BTreeMap::new() };
        krate.scopes.extend(krate.modules.keys().cloned());
        let mut imports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        for (m, (_, named)) in &krate.modules {
            for n in named.iter().filter(|n| n.item) {
                let scope = scoped(m, n);
                let Some(target) = krate.absolute(&scope, &n.path) else { continue };
                let name = n.binds.clone().unwrap_or_else(|| "*".into());
                if name != "*" || !scope.starts_with(&target) {
                    imports.entry(scope).or_default().entry(name).or_insert(target);
                }
            }
        }
        krate.imports = imports;
        krate
    }

    /// `path` as written in module `m`, from the crate root; `None` for another crate's path.
    fn absolute(&self, m: &ModPath, path: &[String]) -> Option<Vec<String>> {
        let first = path.first()?;
        let (mut base, rest) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (m.clone(), &path[1..]),
            "super" => {
                let supers = path.iter().take_while(|s| *s == "super").count();
                (m.get(..m.len().checked_sub(supers)?)?.to_vec(), &path[supers..])
            }
            // A child module of `m` (the 2018 edition's relative `use`), else another crate.
            _ => {
                let child: ModPath = m.iter().chain([first]).cloned().collect();
                (self.scopes.contains(&child).then(|| m.clone())?, path)
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The deepest module file an absolute path names, following re-exports (8 deep at most).
    fn resolve(&self, path: &[String], depth: usize) -> ModPath {
        let mut m = ModPath::new();
        for (k, seg) in path.iter().enumerate() {
            let child: ModPath = m.iter().chain([seg]).cloned().collect();
            if self.scopes.contains(&child) {
                m = child;
                continue;
            }
            let imports = self.imports.get(&m).filter(|_| depth < 8);
            if let Some(target) = imports.and_then(|i| i.get(seg)) {
                let target: Vec<String> = target.iter().chain(&path[k + 1..]).cloned().collect();
                return self.resolve(&target, depth + 1);
            }
            if let Some(glob) = imports.and_then(|i| i.get("*")) {
                let target: Vec<String> = glob.iter().chain(&path[k..]).cloned().collect();
                return self.resolve(&target, depth + 1);
            }
            break;
        }
        while !m.is_empty() && !self.modules.contains_key(&m) {
            m.pop(); // an inline module is part of its file's
        }
        m
    }

    /// Every edge A -> B, with the file and line of its first occurrence. A `pub use` of a
    /// module's own descendant is the tree, not an import, and is left out.
    fn edges(&self) -> BTreeMap<(ModPath, ModPath), String> {
        let mut edges = BTreeMap::new();
        for (m, (file, named)) in &self.modules {
            for n in named {
                let scope: ModPath = m.iter().chain(&n.scope).cloned().collect();
                let Some(path) = self.absolute(&scope, &n.path) else { continue };
                let to = self.resolve(&path, 0);
                if to != *m && (!to.starts_with(m) || !n.public) {
                    edges.entry((m.clone(), to)).or_insert_with(|| format!("{file}:{}", n.line));
                }
            }
        }
        edges
    }

    /// The strongly connected components (each as its modules), and every cycle, as
    /// `a -> b -> a` with each edge's file and line: for each edge inside a component, the
    /// shortest cycle through it (so each such edge is shown at least once), deduplicated.
    fn cycles(&self) -> (Vec<String>, Vec<String>) {
        let edges = self.edges();
        let mut succ: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
        for (a, b) in edges.keys() {
            succ.entry(a).or_default().push(b);
        }
        let scc = components(&succ);
        let mut cycles = BTreeSet::new();
        for (a, b) in edges.keys().filter(|(a, b)| scc.contains_key(a) && scc.get(a) == scc.get(b)) {
            // Breadth-first from `b` back to `a`, inside the component.
            let mut prev: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
            let mut queue = VecDeque::from([b]);
            while let Some(x) = queue.pop_front() {
                if x == a {
                    break;
                }
                for y in succ.get(x).into_iter().flatten().filter(|y| scc.get(*y) == scc.get(a)) {
                    if *y != b && !prev.contains_key(y) {
                        prev.insert(y, x);
                        queue.push_back(y);
                    }
                }
            }
            let mut cycle = vec![a];
            while let Some(&x) = prev.get(cycle.last().unwrap()) {
                cycle.push(x);
            }
            cycle.reverse(); // b … a, then rotated to start at the least module.
            let least = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap();
            cycle.rotate_left(least);
            cycles.insert(cycle.into_iter().cloned().collect::<Vec<_>>());
        }
        let name = |m: &ModPath| if m.is_empty() { "crate".to_string() } else { m.join("::") };
        let mut tangles: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (m, k) in &scc {
            tangles.entry(*k).or_default().push(name(m));
        }
        let tangles = tangles.into_values().map(|t| format!("  {}", t.join(", "))).collect();
        let cycles = cycles
            .iter()
            .map(|c| {
                let hops: Vec<_> = c.iter().zip(c.iter().cycle().skip(1)).collect();
                let mut s = c.iter().chain(&c[..1]).map(name).collect::<Vec<_>>().join(" -> ");
                for (a, b) in hops {
                    s += &format!("\n    {} -> {}: {}", name(a), name(b), edges[&(a.clone(), b.clone())]);
                }
                s
            })
            .collect();
        (tangles, cycles)
    }
}

/// Tarjan's strongly connected components: each node in a component of two or more
/// modules, mapped to its component's number.
fn components<'a>(succ: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>) -> BTreeMap<&'a ModPath, usize> {
    struct State<'a> {
        index: BTreeMap<&'a ModPath, (usize, usize)>,
        stack: Vec<&'a ModPath>,
        out: BTreeMap<&'a ModPath, usize>,
        count: usize,
    }
    fn visit<'a>(v: &'a ModPath, succ: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(v, (n, n));
        s.stack.push(v);
        for &w in succ.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, succ, s);
                let low = s.index[v].1.min(s.index[w].1);
                s.index.get_mut(v).unwrap().1 = low;
            } else if s.stack.contains(&w) {
                let low = s.index[v].1.min(s.index[w].0);
                s.index.get_mut(v).unwrap().1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let at = s.stack.iter().rposition(|&x| x == v).unwrap();
            let members = s.stack.split_off(at);
            if members.len() > 1 {
                s.out.extend(members.into_iter().map(|m| (m, s.count)));
                s.count += 1;
            }
        }
    }
    let mut s = State { index: BTreeMap::new(), stack: Vec::new(), out: BTreeMap::new(), count: 0 };
    for &v in succ.keys() {
        if !s.index.contains_key(v) {
            visit(v, succ, &mut s);
        }
    }
    s.out
}

/// The checker itself, on a crate in memory.
#[test]
fn checker_finds_cycles_and_not_the_tree() {
    let files: Vec<(String, String)> = [
        ("lib.rs", "mod a; mod b; mod c; mod p; mod s; pub use a::A; pub use p::{q::Q as Q2, P};"),
        ("a.rs", "use crate::b::{self, B}; // use crate::c;\npub struct A;"),
        ("b.rs", "pub struct B;\npub fn f() -> u8 { let _s = \"crate::p::P\"; crate::c::g() }"),
        ("c.rs", "use super::A;\npub fn g() -> u8 { 0 }"),
        (
            "p/mod.rs",
            "mod q; mod r; pub use q::Q; pub struct P;\npub mod inner { pub use super::q::*; }\n\
             #[cfg(test)]\nmod tests { use crate::a::A; }",
        ),
        ("p/q.rs", "use super::P; pub struct Q;"),
        ("p/r.rs", "use super::{Q, super::Q2}; fn f(_: &super::super::b::B) {}"),
        // A parent whose own code uses its child, which uses the parent's `S`: a cycle.
        ("s/mod.rs", "mod t; use t::helper; pub struct S;"),
        ("s/t.rs", "use super::S; pub fn helper() {}"),
    ]
    .iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    let krate = Crate::new(&files);
    let m = |s: &str| s.split("::").map(String::from).collect::<ModPath>();
    // `super::Q` from `p::r` is `p::q` through `p`'s re-export; `crate::Q2` through the root's.
    assert_eq!(krate.resolve(&m("p::Q"), 0), m("p::q"));
    assert_eq!(krate.resolve(&m("Q2"), 0), m("p::q"));
    assert_eq!(krate.resolve(&m("A"), 0), m("a"));
    // `super` in an inline `mod inner { … }` of `p` is `p`; its glob re-exports `p::q`.
    assert_eq!(krate.resolve(&m("p::inner::Q"), 0), m("p::q"));
    let edges: Vec<String> =
        krate.edges().into_iter().map(|((a, b), at)| format!("{}->{} {at}", a.join("::"), b.join("::"))).collect();
    assert_eq!(
        edges,
        [
            "a->b src/a.rs:1",
            "b->c src/b.rs:2",
            "c->a src/c.rs:1",
            "p::q->p src/p/q.rs:1",
            "p::r->b src/p/r.rs:1",
            "p::r->p::q src/p/r.rs:1",
            "s->s::t src/s/mod.rs:1",
            "s::t->s src/s/t.rs:1"
        ]
    );
    assert_eq!(
        krate.cycles(),
        (
            vec!["  a, b, c".to_string(), "  s, s::t".to_string()],
            vec![
                "a -> b -> c -> a\n    a -> b: src/a.rs:1\n    b -> c: src/b.rs:2\n    c -> a: src/c.rs:1".to_string(),
                "s -> s::t -> s\n    s -> s::t: src/s/mod.rs:1\n    s::t -> s: src/s/t.rs:1".to_string()
            ]
        )
    );
}
