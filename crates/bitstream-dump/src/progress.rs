//! A progress bar on stderr, only when stderr is a terminal and the input is large.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs at least this large (bytes) get a progress bar.
pub const LARGE_INPUT: usize = 16 << 20;

/// A progress bar, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// No progress bar.
    pub fn none() -> Self {
        Progress(None)
    }

    /// A bar over `bytes` bytes if `wanted` (`None`: if stderr is a terminal and the
    /// input is large).
    pub fn new(bytes: usize, wanted: Option<bool>, label: &str) -> Self {
        let show = wanted.unwrap_or_else(|| bytes >= LARGE_INPUT && std::io::stderr().is_terminal());
        if !show {
            return Progress::none();
        }
        let bar = ProgressBar::with_draw_target(Some(bytes as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(label.to_string());
        Progress(Some(bar))
    }

    /// Moves the bar to `byte`.
    pub fn set(&self, byte: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(byte);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
