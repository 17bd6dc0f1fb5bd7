//! `llvm_bitstream_reader._native`: the crate's IR layer for Python (see
//! `python/README.md`). Every object owns the bytes of its file (shared, never copied
//! again) and decodes on demand: a [`Module`] keeps what `Module::parse` reads (O(1) in
//! the bodies), a [`Function`]'s instructions are decoded when asked for, and printing
//! and decoding run with the GIL released.

use std::sync::{Arc, OnceLock};

use llvm_bitstream_reader::ir::{self, DisOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

pyo3::create_exception!(
    llvm_bitstream_reader._native,
    BitcodeError,
    PyValueError,
    "The input is not what it claims to be: the message says what was wrong, `offset` at \
     which byte of the input (None where no position applies)."
);

/// A library error as a `BitcodeError` carrying the byte offset.
fn error(py: Python<'_>, e: &llvm_bitstream_reader::Error) -> PyErr {
    let err = BitcodeError::new_err(e.to_string());
    let _ = err.value(py).setattr("offset", e.byte_offset());
    err
}

/// A `BitcodeError` without a position (an index out of range, a file that is not IR).
fn error_without_offset(py: Python<'_>, message: String) -> PyErr {
    let err = BitcodeError::new_err(message);
    let _ = err.value(py).setattr("offset", py.None());
    err
}

/// The bytes of one input file, shared by every object made from it.
type Data = Arc<[u8]>;

/// An error found after the module was made (decoding its bodies, printing it): the
/// message and, where the library's error has one, the byte offset, kept for the
/// `BitcodeError` every later ask raises again.
#[derive(Clone, Debug)]
struct Failure {
    message: String,
    offset: Option<u64>,
}

impl Failure {
    /// A library error, `context` (which function) before its message.
    fn of(context: &str, e: &llvm_bitstream_reader::Error) -> Failure {
        let message = if context.is_empty() { e.to_string() } else { format!("{context}: {e}") };
        Failure { message, offset: Some(e.byte_offset()) }
    }

    /// A failure without a position.
    fn message(message: String) -> Failure {
        Failure { message, offset: None }
    }

    /// As the `BitcodeError` Python sees.
    fn raise(&self, py: Python<'_>) -> PyErr {
        let err = BitcodeError::new_err(self.message.clone());
        let _ = err.value(py).setattr("offset", self.offset);
        err
    }
}

/// Parses module `index` of `data` (cheap: bodies, constants and metadata are skipped in
/// O(1) until asked for); `partial`: what a damaged input holds before the break.
fn parsed(data: &[u8], index: usize, partial: bool) -> Result<Option<ir::Module<'_>>, llvm_bitstream_reader::Error> {
    let mut modules = if partial { ir::Module::parse_all_partial(data).0 } else { ir::Module::parse_all(data)? };
    Ok((index < modules.len()).then(|| modules.swap_remove(index)))
}

/// [`parsed`], for the lazy readers of a module made before (which was there then).
fn module_at(data: &[u8], index: usize, partial: bool) -> Result<ir::Module<'_>, Failure> {
    parsed(data, index, partial)
        .map_err(|e| Failure::of("", &e))?
        .ok_or_else(|| Failure::message(format!("no module {index}")))
}

/// Reads `path_or_bytes`: a `str`/`os.PathLike` path is read from disk, `bytes` (or any
/// buffer) taken as the input.
fn input_bytes(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Data> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        return Ok(Arc::from(bytes.as_bytes()));
    }
    if let Ok(buffer) = source.extract::<Vec<u8>>() {
        return Ok(Arc::from(buffer));
    }
    let path: std::path::PathBuf = source.extract()?;
    py.detach(|| std::fs::read(&path)).map(Arc::from).map_err(PyErr::from)
}

/// One LLVM IR module of a bitcode file: `Module.open(path)`, `Module.parse(data)`, and
/// `Module.open_all` / `Module.parse_all` for every module of a multi-module file.
#[pyclass(frozen, module = "llvm_bitstream_reader")]
struct Module {
    data: Data,
    index: usize,
    /// The path it was opened from, as given: `llvm-dis` prints it as the module's ID.
    path: Option<String>,
    /// Read by `parse_partial`: what a damaged input holds before the break.
    partial: bool,
    #[pyo3(get)]
    triple: Option<String>,
    #[pyo3(get)]
    datalayout: Option<String>,
    #[pyo3(get)]
    source_filename: Option<String>,
    #[pyo3(get)]
    producer: Option<String>,
    globals: Vec<Global>,
    functions: Vec<FunctionInfo>,
    /// Every body's instructions and subprogram, decoded together on the first ask (one
    /// `Bodies`, its module constants decoded once, not once per function).
    decoded: OnceLock<Result<Arc<Vec<Decoded>>, Failure>>,
    /// Every body's instructions as `llvm-dis` prints them, made together on the first ask.
    texts: OnceLock<Result<Arc<Vec<Vec<String>>>, Failure>>,
    /// Every instruction's type and operands as `llvm-dis-22` prints them (by function,
    /// then instruction), made together on the first ask.
    printed: OnceLock<Result<Arc<Vec<Vec<Printed>>>, Failure>>,
    /// The use index of the module as LLVM 22 reads it, made on the first `uses`.
    uses: OnceLock<Result<Arc<UseTable>, Failure>>,
    /// By `llvm-dis` version: each function's text as the module's text prints it (by
    /// function index; `None` for one the module's text does not print), made on the first
    /// `Function.dis` of that version.
    function_texts: std::sync::Mutex<std::collections::BTreeMap<u32, Arc<Vec<Option<String>>>>>,
}

/// What one instruction gives the Python objects without printing.
#[derive(Clone)]
struct InstInfo {
    opcode: &'static str,
    /// The block it is in.
    block: u32,
    /// Its `!dbg` line and column, and its scope's file (an index into
    /// [`Decoded::files`]).
    loc: Option<(u32, u32, Option<u32>)>,
    /// The function (or alias) a direct call calls, by the name LLVM 22 gives it.
    callee: Option<Arc<str>>,
}

/// What one function's body gives the Python objects.
struct Decoded {
    instructions: Vec<InstInfo>,
    /// The source files the instructions' locations name.
    files: Vec<Arc<str>>,
    subprogram: Option<Subprogram>,
    /// Each block's successors, then each block's predecessors (in `; preds =` order).
    successors: Vec<Vec<u32>>,
    predecessors: Vec<Vec<u32>>,
}

/// What a `Function` object shows without decoding its body.
#[derive(Clone)]
struct FunctionInfo {
    name: String,
    linkage: String,
    is_declaration: bool,
    type_text: String,
}

/// A global variable's name, linkage and value type.
#[pyclass(frozen, get_all, module = "llvm_bitstream_reader")]
#[derive(Clone)]
struct Global {
    /// The name (invalid UTF-8 replaced).
    name: String,
    /// The linkage as LLVM's assembly spells it (`external`, `internal`, …).
    linkage: String,
    /// The value type as `llvm-dis` prints it.
    type_text: String,
    /// Whether it is `constant`.
    is_constant: bool,
    /// Whether it has an initializer.
    has_initializer: bool,
}

#[pymethods]
impl Global {
    fn __repr__(&self) -> String {
        format!("<Global @{} {} {}>", self.name, self.linkage, self.type_text)
    }
}

impl Module {
    /// Module `index` of `data`, `path` its ID; `partial`: read as `parse_partial` reads.
    fn load(py: Python<'_>, data: Data, index: usize, path: Option<String>, partial: bool) -> PyResult<Module> {
        match py.detach(|| parsed(&data, index, partial)) {
            Ok(Some(module)) => Ok(Module::of(&module, data.clone(), index, path, partial)),
            Ok(None) => Err(error_without_offset(py, format!("the input has no module {index}"))),
            Err(e) => Err(error(py, &e)),
        }
    }

    /// Every module of `data`, read once (not once to count them and again for each).
    fn load_all(py: Python<'_>, data: Data, path: Option<String>) -> PyResult<Vec<Module>> {
        let modules = py.detach(|| {
            ir::Module::parse_all(&data).map(|all| {
                let of = |(i, m)| Module::of(m, data.clone(), i, path.clone(), false);
                all.iter().enumerate().map(of).collect::<Vec<_>>()
            })
        });
        modules.map_err(|e| error(py, &e))
    }

    /// The Python object of `module`, module `index` of `data`: what it shows at once.
    fn of(module: &ir::Module<'_>, data: Data, index: usize, path: Option<String>, partial: bool) -> Module {
        let types = &module.types;
        let text = |ty| types.display(ty).to_string();
        let globals = module
            .globals
            .iter()
            .map(|g| Global {
                name: g.common.name_str().into_owned(),
                linkage: g.common.linkage.to_string(),
                type_text: text(g.common.value_type),
                is_constant: g.is_constant,
                has_initializer: g.initializer.is_some(),
            })
            .collect();
        let functions = module
            .functions
            .iter()
            .map(|f| FunctionInfo {
                name: f.common.name_str().into_owned(),
                linkage: f.common.linkage.to_string(),
                is_declaration: f.is_declaration,
                type_text: text(f.common.value_type),
            })
            .collect();
        Module {
            data,
            index,
            path,
            partial,
            triple: module.triple.as_deref().map(str::to_owned),
            // As LLVM 22 reads it, as the instructions are (`ir::view`).
            datalayout: Some(
                ir::upgrade::upgraded_datalayout(
                    22,
                    module.datalayout.as_deref().unwrap_or(""),
                    module.triple.as_deref().unwrap_or("").as_bytes(),
                )
                .into_owned(),
            )
            .filter(|dl| !dl.is_empty()),
            source_filename: module.source_filename.as_deref().map(str::to_owned),
            producer: module.producer.clone().map(|p| p.to_string()),
            globals,
            functions,
            decoded: OnceLock::new(),
            texts: OnceLock::new(),
            printed: OnceLock::new(),
            uses: OnceLock::new(),
            function_texts: Default::default(),
        }
    }

    /// Every body decoded (once per module object), with the GIL released.
    fn decoded(&self, py: Python<'_>) -> PyResult<Arc<Vec<Decoded>>> {
        let (data, index, partial) = (&self.data, self.index, self.partial);
        let decoded = py.detach(|| self.decoded.get_or_init(|| decode_all(data, index, partial)));
        decoded.clone().map_err(|f| f.raise(py))
    }

    /// Every body's instruction texts (once per module object), with the GIL released.
    fn texts(&self, py: Python<'_>) -> PyResult<Arc<Vec<Vec<String>>>> {
        let decoded = self.decoded(py)?;
        // Cut from the module's text as `Function.dis` has it: the module printed once.
        let functions = self.function_texts(py, DisOptions { llvm_version: 22 })?;
        let texts = py.detach(|| self.texts.get_or_init(|| texts_all(&functions, &decoded)));
        texts.clone().map_err(|f| f.raise(py))
    }

    /// Every instruction's type and operands as printed (once per module object), with the
    /// GIL released.
    fn printed(&self, py: Python<'_>) -> PyResult<Arc<Vec<Vec<Printed>>>> {
        let (data, index, partial) = (&self.data, self.index, self.partial);
        let printed = py.detach(|| self.printed.get_or_init(|| print_all(data, index, partial)));
        printed.clone().map_err(|f| f.raise(py))
    }

    /// The use index and the names it needs (once per module object), with the GIL
    /// released.
    fn use_table(&self, py: Python<'_>) -> PyResult<Arc<UseTable>> {
        let (data, index, partial) = (&self.data, self.index, self.partial);
        let table = py.detach(|| self.uses.get_or_init(|| UseTable::build(data, index, partial)));
        table.clone().map_err(|f| f.raise(py))
    }

    /// Each function's text as LLVM `llvm_version`'s `llvm-dis` prints the module (once per
    /// module object and version), with the GIL released.
    fn function_texts(&self, py: Python<'_>, options: DisOptions) -> PyResult<Arc<Vec<Option<String>>>> {
        let version = options.llvm_version;
        if let Some(done) = self.function_texts.lock().unwrap_or_else(|e| e.into_inner()).get(&version) {
            return Ok(done.clone());
        }
        let (data, index, partial) = (&self.data, self.index, self.partial);
        let made = py
            .detach(|| -> Result<Arc<Vec<Option<String>>>, Failure> {
                let module = module_at(data, index, partial)?;
                let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
                let text = bodies.display_module(options).to_string();
                let view = bodies.view(version);
                Ok(Arc::new(functions_of_text(&text, view.function_order(), module.functions.len())))
            })
            .map_err(|f| f.raise(py))?;
        self.function_texts.lock().unwrap_or_else(|e| e.into_inner()).insert(version, made.clone());
        Ok(made)
    }
}

/// A module's text cut into its functions (`define … {` to `}`, or the `declare` line), by
/// function index: the text prints them in `order`. Where the cut does not give as many
/// functions as `order` lists, none is trusted (every entry `None`).
fn functions_of_text(text: &str, order: &[ir::view::Listed], functions: usize) -> Vec<Option<String>> {
    let mut cut: Vec<String> = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        if let Some(f) = open.as_mut() {
            f.push('\n');
            f.push_str(line);
            if line == "}" {
                cut.extend(open.take());
            }
        } else if line.starts_with("define ") {
            open = Some(line.to_owned());
        } else if line.starts_with("declare ") {
            cut.push(line.to_owned());
        }
    }
    let mut out = vec![None; functions];
    if cut.len() == order.len() {
        for (listed, f) in order.iter().zip(cut) {
            if let ir::view::Listed::Function(i) = *listed {
                if let Some(slot) = out.get_mut(i) {
                    *slot = Some(f);
                }
            }
        }
    }
    out
}

#[pymethods]
impl Module {
    /// The first module of the bitcode file at `path`.
    #[staticmethod]
    fn open(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Module> {
        let data: Data = py.detach(|| std::fs::read(&path)).map(Arc::from)?;
        Module::load(py, data, 0, Some(path.to_string_lossy().into_owned()), false)
    }

    /// The first module of bitcode `data` (`bytes` or any buffer).
    #[staticmethod]
    fn parse(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Module> {
        Module::load(py, input_bytes(py, data)?, 0, None, false)
    }

    /// Every module of the bitcode file at `path` (`llvm-cat -b` makes several).
    #[staticmethod]
    fn open_all(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<Module>> {
        let data: Data = py.detach(|| std::fs::read(&path)).map(Arc::from)?;
        Module::load_all(py, data, Some(path.to_string_lossy().into_owned()))
    }

    /// Every module of bitcode `data`.
    #[staticmethod]
    fn parse_all(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Vec<Module>> {
        Module::load_all(py, input_bytes(py, data)?, None)
    }

    /// What a damaged or cut file holds before the break: `(modules, error)`, the modules
    /// read (a cut module keeps its complete function bodies; its global values are
    /// unnamed when the string table is past the break) and the `BitcodeError` that
    /// stopped the reading, or None.
    #[staticmethod]
    fn parse_partial(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<(Vec<Module>, Option<PyErr>)> {
        let data = input_bytes(py, data)?;
        let (modules, err) = py.detach(|| {
            let (all, err) = ir::Module::parse_all_partial(&data);
            let of = |(i, m)| Module::of(m, data.clone(), i, None, true);
            (all.iter().enumerate().map(of).collect(), err)
        });
        Ok((modules, err.map(|e| error(py, &e))))
    }

    /// The module's global variables, in file order.
    #[getter]
    fn globals(&self) -> Vec<Global> {
        self.globals.clone()
    }

    /// The module's functions (definitions and declarations), in file order.
    #[getter]
    fn functions(slf: &Bound<'_, Self>) -> Vec<Function> {
        let this = slf.get();
        (0..this.functions.len())
            .map(|i| Function { module: slf.clone().unbind(), index: i, info: this.functions[i].clone() })
            .collect()
    }

    /// The whole module as `llvm-dis` of LLVM `llvm_version` prints it (13, 14, 15, 16, 19
    /// or 22), on `threads` threads (the same text at any count). `module_id` is the
    /// `; ModuleID = '…'` line's (by default the path given to `open`; none for `parse`).
    #[pyo3(signature = (llvm_version = 22, threads = 1, module_id = None))]
    fn dis(&self, py: Python<'_>, llvm_version: u32, threads: usize, module_id: Option<String>) -> PyResult<String> {
        let options = dis_options(llvm_version)?;
        let (data, index, partial) = (self.data.clone(), self.index, self.partial);
        let module_id = module_id.or_else(|| self.path.clone());
        py.detach(move || -> Result<String, Failure> {
            let module = module_at(&data, index, partial)?;
            let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
            let display = bodies.display_module(options).with_threads(threads);
            Ok(match module_id.as_deref() {
                Some(id) => display.with_module_id(id).to_string(),
                None => display.to_string(),
            })
        })
        .map_err(|f| f.raise(py))
    }

    /// Pickling (`pickle`, `multiprocessing`, Dask): a module travels as its file's
    /// bytes, its index in the file, its path and how it was read, and is read again on
    /// the other side (what was decoded is not sent; it is decoded again when asked for).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let restore = py.get_type::<Module>().getattr("_restore")?;
        let state = (PyBytes::new(py, &this.data), this.index, this.path.clone(), this.partial);
        Ok((restore, state.into_pyobject(py)?))
    }

    /// The module a pickle holds: see `__reduce__`.
    #[staticmethod]
    fn _restore(py: Python<'_>, data: &[u8], index: usize, path: Option<String>, partial: bool) -> PyResult<Module> {
        Module::load(py, Arc::from(data), index, path, partial)
    }

    /// Every use of the global value `name` (a global variable, function, alias or
    /// ifunc, without the `@`), as LLVM 22 reads the module, each followed through the
    /// constants that use it (a constant expression, an aggregate) to where it is printed:
    /// one dict per use, `user` (`"instruction"`, `"bundle"`, `"debug_record"`,
    /// `"global"` or `"metadata"`), `function` (the function it is in, None at module
    /// level), `instruction` (its index in the function's instructions, or None),
    /// `global` (the global whose initializer, aliasee, personality, prefix or prologue it
    /// is, or None) and `via_constant` (whether a constant stands between). A use in a
    /// constant used twice counts twice. `KeyError` for a name the module lacks.
    fn uses<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let table = self.use_table(py)?;
        let found = py.detach(|| {
            let value = table.global_names.iter().position(|n| n.as_deref() == Some(name))?;
            let mut rows = Vec::new();
            use_rows(&table, (None, value as u64), false, 0, &mut rows);
            Some(rows)
        });
        let Some(rows) = found else {
            return Err(pyo3::exceptions::PyKeyError::new_err(name.to_owned()));
        };
        rows.into_iter()
            .map(|row| {
                let d = PyDict::new(py);
                d.set_item("user", row.user)?;
                d.set_item("function", row.function)?;
                d.set_item("instruction", row.instruction)?;
                d.set_item("global", row.global)?;
                d.set_item("via_constant", row.via_constant)?;
                Ok(d)
            })
            .collect()
    }

    /// The direct calls between functions as an edge list, `[(caller, callee), …]` by
    /// name: one edge per pair (a caller calling a callee twice is one edge), in the
    /// order of each pair's first call, callers in file order. A call of an alias names
    /// the alias; indirect calls and inline asm are not edges. `networkx.DiGraph(edges)`
    /// takes it as it is. Decodes every body (once per module object).
    fn call_graph(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        let decoded = self.decoded(py)?;
        let mut seen: std::collections::BTreeSet<(usize, Arc<str>)> = Default::default();
        let mut edges = Vec::new();
        for (f, function) in decoded.iter().enumerate() {
            for callee in function.instructions.iter().filter_map(|i| i.callee.as_ref()) {
                if seen.insert((f, callee.clone())) {
                    edges.push((self.functions[f].name.clone(), callee.to_string()));
                }
            }
        }
        Ok(edges)
    }

    /// Every instruction of every function definition as a `pyarrow.Table` (pyarrow must
    /// be installed), one row per instruction in file order: `function` (its name),
    /// `block` and `index` (in the function), `opcode`, `type` (as `llvm-dis-22` prints
    /// it), `operands` (how many), `callee` (a direct call's, else null), `file`, `line`
    /// and `column` (of its `!dbg` location, else null). The columns are what
    /// `Function.instructions` gives, without an object per instruction.
    fn instruction_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let decoded = self.decoded(py)?;
        let printed = self.printed(py)?;
        let n: usize = decoded.iter().map(|f| f.instructions.len()).sum();
        let mut function = Vec::with_capacity(n);
        let (mut block, mut index, mut operands) =
            (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut opcode, mut ty, mut callee) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut file, mut line, mut column) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for (f, d) in decoded.iter().enumerate() {
            let name = self.functions[f].name.as_str();
            for (i, inst) in d.instructions.iter().enumerate() {
                let p = printed.get(f).and_then(|p| p.get(i));
                function.push(name);
                block.push(inst.block);
                index.push(i as u32);
                opcode.push(inst.opcode);
                ty.push(p.map(|p| p.result_type.clone()));
                operands.push(p.map_or(0, |p| p.operands.len() as u32));
                callee.push(inst.callee.clone());
                file.push(inst.loc.and_then(|l| l.2).and_then(|at| d.files.get(at as usize)).cloned());
                line.push(inst.loc.map(|l| l.0));
                column.push(inst.loc.map(|l| l.1));
            }
        }
        let pa = py.import("pyarrow")?;
        let string = pa.call_method0("string")?;
        let int32 = pa.call_method0("int32")?;
        let fields = [
            ("function", &string),
            ("block", &int32),
            ("index", &int32),
            ("opcode", &string),
            ("type", &string),
            ("operands", &int32),
            ("callee", &string),
            ("file", &string),
            ("line", &int32),
            ("column", &int32),
        ];
        let columns = PyDict::new(py);
        columns.set_item("function", function)?;
        columns.set_item("block", block)?;
        columns.set_item("index", index)?;
        columns.set_item("opcode", opcode)?;
        columns.set_item("type", ty.iter().map(|t| t.as_deref()).collect::<Vec<_>>())?;
        columns.set_item("operands", operands)?;
        columns.set_item("callee", callee.iter().map(|t| t.as_deref()).collect::<Vec<_>>())?;
        columns.set_item("file", file.iter().map(|t| t.as_deref()).collect::<Vec<_>>())?;
        columns.set_item("line", line)?;
        columns.set_item("column", column)?;
        arrow_table(&pa, &columns, &fields)
    }

    /// Every function as a `pyarrow.Table`, one row per function in file order: `name`,
    /// `linkage`, `declaration` (whether it has no body), `type` (as `llvm-dis` prints
    /// it), `blocks`, `instructions`, `calls` (direct calls), and its `DISubprogram`'s
    /// `file` and `line` (null without one).
    fn function_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let decoded = self.decoded(py)?;
        let pa = py.import("pyarrow")?;
        let (string, int32, int64, boolean) = (
            pa.call_method0("string")?,
            pa.call_method0("int32")?,
            pa.call_method0("int64")?,
            pa.call_method0("bool_")?,
        );
        let fields = [
            ("name", &string),
            ("linkage", &string),
            ("declaration", &boolean),
            ("type", &string),
            ("blocks", &int32),
            ("instructions", &int64),
            ("calls", &int64),
            ("file", &string),
            ("line", &int32),
        ];
        let info = &self.functions;
        let columns = PyDict::new(py);
        columns.set_item("name", info.iter().map(|f| f.name.as_str()).collect::<Vec<_>>())?;
        columns.set_item("linkage", info.iter().map(|f| f.linkage.as_str()).collect::<Vec<_>>())?;
        columns.set_item("declaration", info.iter().map(|f| f.is_declaration).collect::<Vec<_>>())?;
        columns.set_item("type", info.iter().map(|f| f.type_text.as_str()).collect::<Vec<_>>())?;
        columns.set_item("blocks", decoded.iter().map(|d| d.successors.len() as u32).collect::<Vec<_>>())?;
        columns.set_item("instructions", decoded.iter().map(|d| d.instructions.len() as u64).collect::<Vec<_>>())?;
        let calls = |d: &Decoded| d.instructions.iter().filter(|i| i.callee.is_some()).count() as u64;
        columns.set_item("calls", decoded.iter().map(calls).collect::<Vec<_>>())?;
        let sp = |d: &Decoded| d.subprogram.clone();
        columns.set_item("file", decoded.iter().map(|d| sp(d).and_then(|s| s.file)).collect::<Vec<_>>())?;
        columns.set_item("line", decoded.iter().map(|d| sp(d).map(|s| s.line)).collect::<Vec<_>>())?;
        arrow_table(&pa, &columns, &fields)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Module {} ({} functions, {} globals)>",
            self.source_filename.as_deref().unwrap_or("?"),
            self.functions.len(),
            self.globals.len()
        )
    }
}

/// `pyarrow.table(columns, schema)` of the schema `fields` (name, pyarrow type) lists.
fn arrow_table<'py>(
    pa: &Bound<'py, PyModule>,
    columns: &Bound<'py, PyDict>,
    fields: &[(&str, &Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let fields = fields.iter().map(|&(name, ty)| pa.call_method1("field", (name, ty))).collect::<PyResult<Vec<_>>>()?;
    let schema = pa.call_method1("schema", (fields,))?;
    let kwargs = PyDict::new(pa.py());
    kwargs.set_item("schema", schema)?;
    pa.call_method("table", (columns,), Some(&kwargs))
}

/// One row of `Module.uses`.
struct UseRow {
    user: &'static str,
    function: Option<String>,
    instruction: Option<u32>,
    global: Option<String>,
    via_constant: bool,
}

/// A module's use index (as LLVM 22 reads it) and the names `Module.uses` reports.
struct UseTable {
    index: ir::uses::UseIndex,
    /// By value id: the global value's name.
    global_names: Vec<Option<String>>,
    /// By function index: the function's name.
    function_names: Vec<String>,
}

impl UseTable {
    fn build(data: &[u8], index: usize, partial: bool) -> Result<Arc<UseTable>, Failure> {
        let module = module_at(data, index, partial)?;
        let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
        let uses = bodies.view(22).uses().map_err(|e| Failure::of("", &e))?;
        let global_names =
            (0..module.values.len() as u64).map(|id| module.global(id).map(|g| g.name_str().into_owned())).collect();
        let function_names = module.functions.iter().map(|f| f.common.name_str().into_owned()).collect();
        Ok(Arc::new(UseTable { index: uses, global_names, function_names }))
    }
}

/// The uses of `key` ((function scope, value id)) into `rows`, followed through the
/// constants using it (at most 64 deep: deeper nesting is not followed).
fn use_rows(table: &UseTable, key: (Option<usize>, u64), via_constant: bool, depth: usize, rows: &mut Vec<UseRow>) {
    use ir::uses::User;
    let name_of_function = |f: usize| table.function_names.get(f).cloned();
    let list = match key.0 {
        None => table.index.of(key.1),
        Some(f) => table.index.of_local(f, key.1),
    };
    for u in list {
        let row = |user, function: Option<usize>, instruction| UseRow {
            user,
            function: function.and_then(name_of_function),
            instruction,
            global: None,
            via_constant,
        };
        match u.user {
            User::Instruction { function, instruction, .. } => {
                rows.push(row("instruction", Some(function), Some(instruction)))
            }
            User::Bundle { function, .. } => rows.push(row("bundle", Some(function), None)),
            User::DebugRecord { function, .. } => rows.push(row("debug_record", Some(function), None)),
            User::Metadata { function, .. } => rows.push(row("metadata", function, None)),
            User::Global { global, .. } => rows.push(UseRow {
                global: table.global_names.get(global as usize).cloned().flatten(),
                ..row("global", None, None)
            }),
            // The constant is of the table `function` says (a function's, or the module's).
            User::Constant { function, constant, .. } if depth < 64 => {
                use_rows(table, (function, constant), true, depth + 1, rows)
            }
            _ => {}
        }
    }
}

/// Decodes every body of module `index` of `data`: opcodes, locations, subprograms. A
/// body that does not decode is an error for the whole module (the message says which).
fn decode_all(data: &[u8], index: usize, partial: bool) -> Result<Arc<Vec<Decoded>>, Failure> {
    let module = module_at(data, index, partial)?;
    let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
    let module_info = bodies.debug_info(None);
    // The bodies as llvm-dis-22 prints them: debug calls LLVM 19+ reads as records are
    // not instructions, constant expressions it expands are.
    let view = bodies.view(22);
    let mut all = Vec::with_capacity(module.functions.len());
    for (i, function) in module.functions.iter().enumerate() {
        let body =
            view.body(i).map_err(|e| Failure::of(&format!("function {i} (@{})", function.common.name_str()), &e))?;
        let subprogram = match &body {
            Some(body) => bodies.debug_info(Some(body)).function_subprogram(),
            None => module_info.global_subprogram(function.common.value_id),
        };
        let mut files: Vec<Arc<str>> = Vec::new();
        let instructions = match &body {
            Some(body) => instruction_infos(&module, &view, &bodies.debug_info(Some(body)), body, &mut files),
            None => Vec::new(),
        };
        let (successors, predecessors) = match &body {
            Some(body) => {
                ((0..body.blocks.len()).map(|b| body.successors(b).collect()).collect(), bodies.predecessors(body))
            }
            None => (Vec::new(), Vec::new()),
        };
        all.push(Decoded {
            files,
            successors,
            predecessors,
            instructions,
            subprogram: subprogram.map(|sp| Subprogram {
                name: sp.name_str().into_owned(),
                file: sp.file.map(|f| f.path().into_owned()),
                line: sp.line,
            }),
        });
    }
    Ok(Arc::new(all))
}

/// The opcode, block, location and direct callee of each instruction of `body` (a body of
/// `view`); the files the locations name are added to `files`.
fn instruction_infos(
    module: &ir::Module<'_>,
    view: &ir::ModuleView<'_, '_, '_>,
    info: &ir::DebugInfo<'_>,
    body: &ir::Body,
    files: &mut Vec<Arc<str>>,
) -> Vec<InstInfo> {
    // Instructions of one scope share its file: each scope is resolved once.
    let mut scope_files: std::collections::BTreeMap<u64, Option<u32>> = Default::default();
    let mut callees: std::collections::BTreeMap<u64, Option<Arc<str>>> = Default::default();
    let mut out = Vec::with_capacity(body.instructions.len());
    for b in 0..body.blocks.len() {
        for inst in body.block_instructions(b) {
            let loc = inst.debug_loc.and_then(|l| body.debug_locs.get(l as usize)).map(|l| {
                let file = l.scope.and_then(|scope| {
                    *scope_files.entry(scope).or_insert_with(|| {
                        let path: Arc<str> = info.scope_file(scope)?.path().into();
                        let at = files.iter().position(|f| *f == path).unwrap_or_else(|| {
                            files.push(path);
                            files.len() - 1
                        });
                        Some(at as u32)
                    })
                });
                (l.line, l.column, file)
            });
            let callee = body.call(inst).and_then(|call| match call.callee.value {
                ir::Value::Global(id) => callees.entry(id).or_insert_with(|| callee_name(module, view, id)).clone(),
                _ => None,
            });
            out.push(InstInfo { opcode: body.opcode_name(inst, view.types()), block: b as u32, loc, callee });
        }
    }
    out
}

/// The name of global value `id` as LLVM 22 declares it (an upgraded intrinsic's new one).
fn callee_name(module: &ir::Module<'_>, view: &ir::ModuleView<'_, '_, '_>, id: u64) -> Option<Arc<str>> {
    match module.values.get(usize::try_from(id).ok()?)? {
        ir::GlobalRef::Function(f) => Some(String::from_utf8_lossy(view.function_name(*f)?).into()),
        _ => Some(module.global(id)?.name_str().as_ref().into()),
    }
}

/// Every instruction's type and operands as `llvm-dis-22` prints them in module `index`
/// of `data` (by function index, then instruction index of the view's body, which is
/// what [`decode_all`] decodes). Equal type texts share one string.
fn print_all(data: &[u8], index: usize, partial: bool) -> Result<Arc<Vec<Vec<Printed>>>, Failure> {
    use ir::Value;
    let module = module_at(data, index, partial)?;
    let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
    let mut all: Vec<Vec<Printed>> = (0..module.functions.len()).map(|_| Vec::new()).collect();
    let mut interned: std::collections::BTreeSet<Arc<str>> = Default::default();
    let mut intern = |text: &str| -> Arc<str> {
        if let Some(t) = interned.get(text) {
            return t.clone();
        }
        let t: Arc<str> = text.into();
        interned.insert(t.clone());
        t
    };
    let mut slots: Option<(usize, ir::LocalSlots)> = None;
    let lossy = |name: Option<&[u8]>| name.map(|n| String::from_utf8_lossy(n).into_owned());
    bodies
        .printed_instructions(DisOptions { llvm_version: 22 }, |view, p| {
            let body = p.body;
            if slots.as_ref().is_none_or(|(f, _)| *f != p.function) {
                slots = Some((p.function, body.slots()));
            }
            let Some((_, local)) = slots.as_ref() else { return };
            let Some(inst) = body.instructions.get(p.instruction as usize) else { return };
            let operands = body
                .operands(inst)
                .iter()
                .enumerate()
                .map(|(n, o)| {
                    let (kind, name) = match o.value {
                        Value::Argument(a) => ("argument", lossy(body.argument_name(a))),
                        Value::Instruction(i) => ("instruction", lossy(body.instruction_name(i))),
                        Value::Block(b) => ("block", lossy(body.block_name(b))),
                        Value::Global(id) => ("global", callee_name(&module, view, id).map(|n| n.to_string())),
                        Value::Constant(_) => ("constant", None),
                        Value::Metadata(_) => ("metadata", None),
                        _ => ("unresolved", None),
                    };
                    Operand {
                        kind: kind.to_owned(),
                        type_text: p.operand_type(n).map(str::to_owned),
                        name,
                        slot: local.of(o.value),
                        text: p.operand(n).unwrap_or("").to_owned(),
                    }
                })
                .collect();
            if let Some(function) = all.get_mut(p.function) {
                function.push(Printed { result_type: intern(p.result_type()), operands });
            }
        })
        .map_err(|e| Failure::of("", &e))?;
    Ok(Arc::new(all))
}

/// Every function's instructions as `llvm-dis-22` prints them, from each function's text
/// in the module's (`functions`, by function index, [`Module::function_texts`]).
/// `decoded` says which functions have a body and how many instructions: a text that
/// does not give each body as many is an error, not a guess.
fn texts_all(functions: &[Option<String>], decoded: &[Decoded]) -> Result<Arc<Vec<Vec<String>>>, Failure> {
    let mut all = Vec::with_capacity(decoded.len());
    for (i, function) in decoded.iter().enumerate() {
        let expected = function.instructions.len();
        // A body has one instruction at least (its terminator): none is no body.
        let instructions = match functions.get(i).and_then(|f| f.as_deref()) {
            Some(text) if expected > 0 => instruction_texts(text),
            _ => Vec::new(),
        };
        if instructions.len() != expected {
            let n = instructions.len();
            return Err(Failure::message(format!("function {i}: its text has {n} instructions, its body {expected}")));
        }
        all.push(instructions);
    }
    Ok(Arc::new(all))
}

/// A function's text cut into its instructions: a line at two spaces starts one (not the
/// `]` that closes a `switch`); lines indented further continue it, but for debug records
/// (`    #dbg_value(…)`, LLVM 19 and later), which are not instructions.
fn instruction_texts(function: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in function.lines() {
        let Some(rest) = line.strip_prefix("  ") else { continue };
        if rest.trim_start().starts_with("#dbg_") {
            continue;
        }
        if rest.starts_with(' ') || rest.starts_with(']') {
            if let Some(last) = out.last_mut() {
                last.push('\n');
                last.push_str(line);
            }
        } else {
            out.push(rest.to_owned());
        }
    }
    out
}

/// One function of a module: its signature at once, its body decoded when asked for.
#[pyclass(frozen, module = "llvm_bitstream_reader")]
struct Function {
    module: Py<Module>,
    index: usize,
    info: FunctionInfo,
}

/// One instruction: its opcode as `llvm-dis` names it, where it is, and (printed when
/// first asked for, for the whole module) its type and operands as `llvm-dis-22` prints
/// them.
#[pyclass(frozen, module = "llvm_bitstream_reader")]
struct Instruction {
    module: Py<Module>,
    function: usize,
    /// Its index in the function's instructions.
    #[pyo3(get)]
    index: u32,
    /// The basic block it is in (blocks numbered from 0 in the body's order).
    #[pyo3(get)]
    block: u32,
    /// The opcode as LLVM's assembly names it (`load`, `call`, `icmp`, …).
    #[pyo3(get)]
    opcode: String,
    /// The instruction as `llvm-dis-22` prints it in its module, operands and
    /// attachments included (`%3 = load i32, ptr %2, align 4, !dbg !12`); a `switch`'s
    /// cases and a `landingpad`'s clauses on their lines after it.
    #[pyo3(get)]
    text: String,
    /// The source line of its `!dbg` location, None without one.
    #[pyo3(get)]
    line: Option<u32>,
    /// The source column of its `!dbg` location, None without one.
    #[pyo3(get)]
    column: Option<u32>,
    /// The source file of its `!dbg` location's scope, None without one.
    #[pyo3(get)]
    file: Option<String>,
    /// The function (or alias) a direct `call`, `invoke` or `callbr` calls, by name
    /// (without the `@`); None for an indirect call or another opcode.
    #[pyo3(get)]
    callee: Option<String>,
}

/// One operand of an instruction, as `llvm-dis-22` prints it in the module's text.
#[pyclass(frozen, get_all, module = "llvm_bitstream_reader")]
#[derive(Clone)]
struct Operand {
    /// What it is: `"argument"`, `"instruction"` (a result), `"block"`, `"global"` (a
    /// global variable, function, alias or ifunc), `"constant"`, `"metadata"` or
    /// `"unresolved"` (a forward reference a damaged body never defined).
    kind: String,
    /// Its type as the text prints it (`i32`, `ptr`, `label`, `%struct.S`); None for
    /// one without a type.
    type_text: Option<String>,
    /// The name of a named local or global value, without `%` or `@`; None otherwise.
    name: Option<String>,
    /// The number `llvm-dis` gives an unnamed local (`%3` is 3); None otherwise.
    slot: Option<u32>,
    /// The value as the text prints it, without its type: `%x`, `%3`, `@g`, a
    /// constant's text (`7`, `null`, `getelementptr inbounds (i8, ptr @g, i64 4)`),
    /// metadata (`!12`).
    text: String,
}

#[pymethods]
impl Operand {
    /// The operand as a typed operand prints (`i32 %3`), or its text without a type.
    fn __str__(&self) -> String {
        match &self.type_text {
            Some(ty) => format!("{ty} {}", self.text),
            None => self.text.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!("<Operand {} {}>", self.kind, self.__str__())
    }
}

/// An instruction's type and operands as the module's text prints them.
struct Printed {
    result_type: Arc<str>,
    operands: Vec<Operand>,
}

#[pymethods]
impl Instruction {
    /// Its type as `llvm-dis-22` prints it (`i32`, `ptr`, `void` for none). The first
    /// ask prints every instruction of the module, once.
    #[getter]
    fn type_text(&self, py: Python<'_>) -> PyResult<String> {
        let printed = self.module.get().printed(py)?;
        Ok(printed
            .get(self.function)
            .and_then(|f| f.get(self.index as usize))
            .map_or_else(String::new, |p| p.result_type.to_string()))
    }

    /// Its operands, as `llvm-dis-22` prints them, in the crate's order (`Body::operands`:
    /// a call's callee, then its arguments; a `store`'s value, then its pointer; a `br`'s
    /// condition, then its targets). The first ask prints
    /// every instruction of the module, once.
    #[getter]
    fn operands(&self, py: Python<'_>) -> PyResult<Vec<Operand>> {
        let printed = self.module.get().printed(py)?;
        Ok(printed
            .get(self.function)
            .and_then(|f| f.get(self.index as usize))
            .map_or_else(Vec::new, |p| p.operands.clone()))
    }

    fn __repr__(&self) -> String {
        match self.line {
            Some(line) => format!("<Instruction {} at line {line}>", self.opcode),
            None => format!("<Instruction {}>", self.opcode),
        }
    }
}

/// Where a function's `DISubprogram` says it is.
#[pyclass(frozen, get_all, module = "llvm_bitstream_reader")]
#[derive(Clone)]
struct Subprogram {
    /// The subprogram's name (the source name, not the mangled one).
    name: String,
    /// The path of its file (directory joined), None without a file.
    file: Option<String>,
    /// The line it starts at.
    line: u32,
}

#[pymethods]
impl Subprogram {
    fn __repr__(&self) -> String {
        format!("<Subprogram {} at {}:{}>", self.name, self.file.as_deref().unwrap_or("?"), self.line)
    }
}

#[pymethods]
impl Function {
    /// The name (invalid UTF-8 replaced).
    #[getter]
    fn name(&self) -> &str {
        &self.info.name
    }

    /// The linkage as LLVM's assembly spells it (`external`, `internal`, …).
    #[getter]
    fn linkage(&self) -> &str {
        &self.info.linkage
    }

    /// Whether it has no body here.
    #[getter]
    fn is_declaration(&self) -> bool {
        self.info.is_declaration
    }

    /// The function type as `llvm-dis` prints it (`i32 (ptr, i64)`).
    #[getter]
    fn type_text(&self) -> &str {
        &self.info.type_text
    }

    /// The body's instructions, in order (empty for a declaration). The first ask
    /// decodes every body of the module, once.
    #[getter]
    fn instructions(&self, py: Python<'_>) -> PyResult<Vec<Instruction>> {
        let decoded = self.module.get().decoded(py)?;
        let texts = self.module.get().texts(py)?;
        let files = &decoded[self.index].files;
        Ok(decoded[self.index]
            .instructions
            .iter()
            .zip(&texts[self.index])
            .enumerate()
            .map(|(i, (inst, text))| Instruction {
                module: self.module.clone_ref(py),
                function: self.index,
                index: i as u32,
                block: inst.block,
                opcode: inst.opcode.to_owned(),
                text: text.clone(),
                line: inst.loc.map(|l| l.0),
                column: inst.loc.map(|l| l.1),
                file: inst.loc.and_then(|l| l.2).and_then(|f| files.get(f as usize)).map(|f| f.to_string()),
                callee: inst.callee.as_deref().map(str::to_owned),
            })
            .collect())
    }

    /// How many instructions of each opcode the body has (`{"load": 3, …}`): what a
    /// corpus job counts, without an object per instruction.
    #[getter]
    fn opcode_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let decoded = self.module.get().decoded(py)?;
        let mut counts: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
        for inst in &decoded[self.index].instructions {
            *counts.entry(inst.opcode).or_default() += 1;
        }
        let d = PyDict::new(py);
        for (opcode, n) in counts {
            d.set_item(opcode, n)?;
        }
        Ok(d)
    }

    /// How many instructions the body has (0 for a declaration).
    #[getter]
    fn instruction_count(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.module.get().decoded(py)?[self.index].instructions.len())
    }

    /// The control-flow graph as an edge list, `[(from, to), …]`, blocks numbered from 0
    /// in the body's order: each block's successors in LLVM's order (`br`'s true target
    /// first, `switch`'s default first). `networkx.DiGraph(f.cfg())` takes it as it is.
    fn cfg(&self, py: Python<'_>) -> PyResult<Vec<(u32, u32)>> {
        let decoded = self.module.get().decoded(py)?;
        Ok(decoded[self.index]
            .successors
            .iter()
            .enumerate()
            .flat_map(|(b, next)| next.iter().map(move |&n| (b as u32, n)))
            .collect())
    }

    /// Each block's successors (`[[1, 2], [3], …]`), as in [`Self::cfg`].
    #[getter]
    fn successors(&self, py: Python<'_>) -> PyResult<Vec<Vec<u32>>> {
        Ok(self.module.get().decoded(py)?[self.index].successors.clone())
    }

    /// Each block's predecessors, in the order `llvm-dis` prints its `; preds =`.
    #[getter]
    fn predecessors(&self, py: Python<'_>) -> PyResult<Vec<Vec<u32>>> {
        Ok(self.module.get().decoded(py)?[self.index].predecessors.clone())
    }

    /// The function's `DISubprogram`: its source name, file and line (None without
    /// debug info).
    #[getter]
    fn subprogram(&self, py: Python<'_>) -> PyResult<Option<Subprogram>> {
        Ok(self.module.get().decoded(py)?[self.index].subprogram.clone())
    }

    /// The function alone as `llvm-dis` prints it within its module: cut from the
    /// module's text, which is printed once per module object and version (every
    /// function's `dis` after the first is a lookup).
    #[pyo3(signature = (llvm_version = 22))]
    fn dis(&self, py: Python<'_>, llvm_version: u32) -> PyResult<String> {
        let options = dis_options(llvm_version)?;
        let m = self.module.get();
        if let Some(text) = m.function_texts(py, options)?.get(self.index).cloned().flatten() {
            return Ok(text);
        }
        // Not in the module's text as cut (a name that starts a line otherwise): printed
        // alone.
        let (data, module_index, partial, index) = (m.data.clone(), m.index, m.partial, self.index);
        py.detach(move || -> Result<String, Failure> {
            let module = module_at(&data, module_index, partial)?;
            let bodies = module.bodies().map_err(|e| Failure::of("", &e))?;
            let body = bodies.body(index).map_err(|e| Failure::of(&format!("function {index}"), &e))?;
            Ok(bodies.display_function(index, body.as_ref(), options).to_string())
        })
        .map_err(|f| f.raise(py))
    }

    fn __repr__(&self) -> String {
        let what = if self.info.is_declaration { "declare" } else { "define" };
        format!("<Function {what} @{}>", self.info.name)
    }
}

/// The options matching `llvm-dis` of LLVM `llvm_version`, or a `ValueError` naming the
/// versions there are.
fn dis_options(llvm_version: u32) -> PyResult<DisOptions> {
    DisOptions::for_version(llvm_version).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no llvm-dis {llvm_version} to match ({} to {})",
            DisOptions::OLDEST_LLVM_VERSION,
            DisOptions::NEWEST_LLVM_VERSION
        ))
    })
}

/// The symbols of a file as `llvm-nm` of LLVM `llvm_nm_version` (14, 19 or 22) lists
/// them: bitcode, objects and archives. One dict per symbol, in file order: `name`,
/// `type` (nm's letter), `address` and `size` (None where nm prints none), `file` (the
/// archive member or file it is in). `debug_syms`: also what `llvm-nm` lists only with
/// `--debug-syms` (private and `llvm.*` symbols, section and file symbols).
#[pyfunction]
#[pyo3(signature = (path_or_bytes, llvm_nm_version = 22, debug_syms = false))]
fn symbols<'py>(
    py: Python<'py>,
    path_or_bytes: &Bound<'py, PyAny>,
    llvm_nm_version: u32,
    debug_syms: bool,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    use llvm_bitstream_reader::symbols as sym;
    let Some(version) = sym::NmVersion::from_major(llvm_nm_version) else {
        return Err(PyValueError::new_err(format!("no llvm-nm {llvm_nm_version} to match (14, 19 or 22)")));
    };
    let data = input_bytes(py, path_or_bytes)?;
    // llvm-nm names a file's symbols after the path it was given.
    let name = match path_or_bytes.extract::<std::path::PathBuf>() {
        Ok(path) if !path_or_bytes.is_instance_of::<PyBytes>() => path.to_string_lossy().into_owned(),
        _ => "<bytes>".to_owned(),
    };
    type Row = (String, char, Option<u64>, Option<u64>, String);
    let rows = py
        .detach(|| -> Result<Vec<Row>, String> {
            let file = sym::read(&name, &data, &sym::Options::new(version)).map_err(|e| e.to_string())?;
            let mut rows = Vec::new();
            for list in &file.lists {
                for s in list.symbols.iter().filter(|s| debug_syms || s.listed) {
                    rows.push((s.name_str().into_owned(), s.letter, s.address, s.size, list.name.clone()));
                }
            }
            Ok(rows)
        })
        .map_err(|m| error_without_offset(py, m))?;
    rows.into_iter()
        .map(|(name, letter, address, size, file)| {
            let d = PyDict::new(py);
            d.set_item("name", name)?;
            d.set_item("type", letter.to_string())?;
            d.set_item("address", address)?;
            d.set_item("size", size)?;
            d.set_item("file", file)?;
            Ok(d)
        })
        .collect()
}

/// One clang diagnostic of a `.dia` file (`clang --serialize-diagnostics`).
#[pyclass(frozen, get_all, module = "llvm_bitstream_reader")]
struct Diagnostic {
    /// `ignored`, `note`, `warning`, `error`, `fatal error` or `remark`.
    level: String,
    /// The message.
    message: String,
    /// The file it points into, None without a location.
    file: Option<String>,
    /// The line (0 without a location).
    line: u32,
    /// The column (0 without a location).
    column: u32,
    /// The category (`Semantic Issue`), None for none.
    category: Option<String>,
    /// The warning flag that controls it (`unused-variable`), None for none.
    flag: Option<String>,
    /// 0 for a diagnostic, 1 for its notes, …
    depth: usize,
    /// The line libclang's `clang_formatDiagnostic` prints for it.
    formatted: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!("<Diagnostic {}>", self.formatted)
    }
}

/// The diagnostics of a `.dia` file, notes after their diagnostic, in file order. A
/// damaged file raises `BitcodeError` (`partial=True`: what was read before the break).
#[pyfunction]
#[pyo3(signature = (path_or_bytes, partial = false))]
fn diagnostics(py: Python<'_>, path_or_bytes: &Bound<'_, PyAny>, partial: bool) -> PyResult<Vec<Diagnostic>> {
    use llvm_bitstream_reader::diag::Diagnostics;
    let data = input_bytes(py, path_or_bytes)?;
    let (rows, err) = py.detach(|| {
        let (diags, err) = Diagnostics::parse_partial(&data);
        let text = |t: llvm_bitstream_reader::Text<'_>| t.to_string_lossy().into_owned();
        let rows: Vec<Diagnostic> = diags
            .walk()
            .map(|(depth, d)| {
                let at = d.location();
                Diagnostic {
                    level: d.level().to_string(),
                    message: text(d.message()),
                    file: at.file.map(|f| text(f.name)),
                    line: at.line,
                    column: at.column,
                    category: d.category().map(|c| text(c.name)),
                    flag: d.flag().map(|f| text(f.name)),
                    depth,
                    formatted: d.to_string(),
                }
            })
            .collect();
        (rows, err)
    });
    match err {
        Some(e) if !partial => Err(error(py, &e)),
        _ => Ok(rows),
    }
}

/// One LLVM optimization remark of a bitstream remarks file.
#[pyclass(frozen, get_all, module = "llvm_bitstream_reader")]
struct Remark {
    /// `Passed`, `Missed`, `Analysis`, … as `llvm-remarkutil`'s YAML tags them.
    kind: String,
    /// The pass (`inline`).
    pass_name: String,
    /// The remark's name (`Inlined`).
    name: String,
    /// The function it is about.
    function: String,
    /// The message: its arguments' values joined.
    message: String,
    /// The source file, None without a location.
    file: Option<String>,
    /// The source line (0 without a location).
    line: u64,
    /// The source column (0 without a location).
    column: u64,
    /// The hotness, None without one.
    hotness: Option<u64>,
}

#[pymethods]
impl Remark {
    fn __repr__(&self) -> String {
        format!("<Remark {} {}/{} in {}>", self.kind, self.pass_name, self.name, self.function)
    }
}

/// The remarks of an LLVM bitstream remarks file (`.opt.bitstream`), in file order.
#[pyfunction]
fn remarks(py: Python<'_>, path_or_bytes: &Bound<'_, PyAny>) -> PyResult<Vec<Remark>> {
    use llvm_bitstream_reader::remarks::RemarksFile;
    let data = input_bytes(py, path_or_bytes)?;
    py.detach(|| -> Result<Vec<Remark>, llvm_bitstream_reader::Error> {
        let text = |t: llvm_bitstream_reader::Text<'_>| t.to_string_lossy().into_owned();
        let mut rows = Vec::new();
        for remark in RemarksFile::parse(&data)?.remarks()? {
            let r = remark?;
            rows.push(Remark {
                kind: r.remark_type.to_string(),
                pass_name: text(r.pass),
                name: text(r.name),
                function: text(r.function),
                message: r.message(),
                file: r.loc.as_ref().map(|l| text(l.file)),
                line: r.loc.as_ref().map_or(0, |l| l.line),
                column: r.loc.as_ref().map_or(0, |l| l.column),
                hotness: r.hotness,
            });
        }
        Ok(rows)
    })
    .map_err(|e| error(py, &e))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BitcodeError", m.py().get_type::<BitcodeError>())?;
    m.add_class::<Module>()?;
    m.add_class::<Function>()?;
    m.add_class::<Global>()?;
    m.add_class::<Instruction>()?;
    m.add_class::<Operand>()?;
    m.add_class::<Subprogram>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Remark>()?;
    m.add_function(wrap_pyfunction!(symbols, m)?)?;
    m.add_function(wrap_pyfunction!(diagnostics, m)?)?;
    m.add_function(wrap_pyfunction!(remarks, m)?)?;
    Ok(())
}
