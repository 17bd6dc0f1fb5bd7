//! A small whole program that pulls in syn, serde/serde_json and regex so that
//! rustc's bitcode for it is large and realistic.  Its behaviour is irrelevant;
//! it only has to use enough of each dependency that LTO keeps the code.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use syn::visit::Visit;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Summary {
    file: String,
    items: usize,
    fns: Vec<String>,
    idents: BTreeMap<String, usize>,
    matches: Vec<String>,
}

struct Counter<'a>(&'a mut Summary);

impl<'ast, 'a> Visit<'ast> for Counter<'a> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.0.fns.push(f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        *self.0.idents.entry(i.to_string()).or_default() += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pattern = regex::Regex::new(args.get(1).map(String::as_str).unwrap_or(r"fn\s+(\w+)"))
        .expect("bad regex");
    let set = regex::RegexSet::new([r"^\s*//", r"unsafe", r"\bimpl\b"]).unwrap();
    let path = args.first().cloned().unwrap_or_else(|| "src/main.rs".into());
    let src = std::fs::read_to_string(&path).unwrap_or_default();
    let mut summary = Summary { file: path, ..Default::default() };
    match syn::parse_file(&src) {
        Ok(file) => {
            summary.items = file.items.len();
            Counter(&mut summary).visit_file(&file);
            let tokens = quote::quote!(#file).to_string();
            summary.matches.push(format!("{} tokens chars", tokens.len()));
            if std::env::var_os("BENCH_DEBUG").is_some() {
                eprintln!("{:#?}", file);
            }
        }
        Err(e) => eprintln!("parse error: {e}"),
    }
    for line in src.lines() {
        if let Some(c) = pattern.captures(line) {
            summary.matches.push(c.get(1).map_or(c[0].to_string(), |m| m.as_str().to_string()));
        }
        let hits: Vec<usize> = set.matches(line).into_iter().collect();
        if !hits.is_empty() {
            summary.matches.push(format!("set{hits:?}"));
        }
    }
    let json = serde_json::to_string_pretty(&summary).unwrap();
    let back: Summary = serde_json::from_str(&json).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    println!("{}", json.len() + back.fns.len() + value.as_object().map_or(0, |o| o.len()));
}
