//! Small but varied Rust library used to produce rustc (LLVM 22) bitcode test
//! inputs: generics, traits, trait objects, closures, strings, floats,
//! panics, iterators, enums, slices and a little unsafe.

use std::fmt;

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> String {
        String::from("shape")
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    pub r: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Rect {
    pub w: f32,
    pub h: f32,
    pub label: String,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
    fn name(&self) -> String {
        format!("circle(r={:.3})", self.r)
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        (self.w as f64) * (self.h as f64)
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} \"{}\"", self.w, self.h, self.label)
    }
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

pub fn largest<T: PartialOrd + Copy>(items: &[T]) -> Option<T> {
    let mut it = items.iter().copied();
    let first = it.next()?;
    Some(it.fold(first, |acc, x| if x > acc { x } else { acc }))
}

#[derive(Debug)]
pub enum Token<'a> {
    Num(i64),
    Float(f64),
    Ident(&'a str),
    Op(char),
}

pub fn tokenize(src: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for word in src.split_whitespace() {
        if let Ok(n) = word.parse::<i64>() {
            out.push(Token::Num(n));
        } else if let Ok(x) = word.parse::<f64>() {
            out.push(Token::Float(x));
        } else if matches!(word, "+" | "-" | "*" | "/") {
            out.push(Token::Op(word.chars().next().unwrap()));
        } else {
            out.push(Token::Ident(word));
        }
    }
    out
}

pub fn eval_rpn(tokens: &[Token<'_>]) -> Result<f64, String> {
    let mut stack: Vec<f64> = Vec::with_capacity(tokens.len());
    for t in tokens {
        match *t {
            Token::Num(n) => stack.push(n as f64),
            Token::Float(x) => stack.push(x),
            Token::Ident(name) => return Err(format!("unknown identifier `{}`", name)),
            Token::Op(op) => {
                let b = stack.pop().ok_or("stack underflow")?;
                let a = stack.pop().ok_or("stack underflow")?;
                stack.push(match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    '/' => {
                        if b == 0.0 {
                            panic!("division by zero in RPN expression");
                        }
                        a / b
                    }
                    _ => unreachable!(),
                });
            }
        }
    }
    stack.pop().ok_or_else(|| "empty expression".to_string())
}

pub struct Counter<F: Fn(u32) -> bool> {
    pred: F,
    hits: u32,
}

impl<F: Fn(u32) -> bool> Counter<F> {
    pub fn new(pred: F) -> Self {
        Counter { pred, hits: 0 }
    }
    pub fn feed(&mut self, xs: impl IntoIterator<Item = u32>) -> u32 {
        for x in xs {
            if (self.pred)(x) {
                self.hits += 1;
            }
        }
        self.hits
    }
}

pub fn word_freq(text: &str) -> Vec<(String, usize)> {
    let mut m: Vec<(String, usize)> = Vec::new();
    for w in text.split_whitespace().map(|w| w.to_lowercase()) {
        match m.iter_mut().find(|(k, _)| *k == w) {
            Some(e) => e.1 += 1,
            None => m.push((w, 1)),
        }
    }
    m
}

pub fn checked_div(a: u64, b: u64) -> u64 {
    match a.checked_div(b) {
        Some(q) => q,
        None => panic!("checked_div: {} / {}", a, b),
    }
}

pub fn stats(xs: &[f32]) -> (f32, f32) {
    let n = xs.len() as f32;
    let mean = xs.iter().sum::<f32>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / n;
    (mean, var.sqrt())
}

pub fn make_adder(k: i32) -> impl Fn(i32) -> i32 {
    move |x| x.wrapping_add(k)
}

pub fn apply_all(fs: &[&dyn Fn(i32) -> i32], x: i32) -> Vec<i32> {
    fs.iter().map(|f| f(x)).collect()
}

pub fn reverse_words(s: &str) -> String {
    let mut v: Vec<&str> = s.split_whitespace().collect();
    v.reverse();
    v.join(" ")
}

pub unsafe fn raw_sum(p: *const u16, n: usize) -> u32 {
    let mut acc = 0u32;
    for i in 0..n {
        acc += *p.add(i) as u32;
    }
    acc
}

#[no_mangle]
pub extern "C" fn c_entry(x: i32) -> i32 {
    let add = make_adder(7);
    let shapes: Vec<Box<dyn Shape>> = vec![
        Box::new(Circle { r: 1.5 }),
        Box::new(Rect { w: 2.0, h: 3.5, label: "r".into() }),
    ];
    let a = total_area(&shapes) as i32;
    let l = largest(&[3, 9, 2, x]).unwrap_or(0);
    let mut c = Counter::new(|v| v % 3 == 0);
    let h = c.feed(0..x.max(0) as u32) as i32;
    add(a + l + h)
}

pub static GREETING: &str = "hello, bitstream \u{1F600}";
pub static mut COUNTER: u64 = 0;
pub const TABLE: [u8; 8] = [1, 1, 2, 3, 5, 8, 13, 21];
