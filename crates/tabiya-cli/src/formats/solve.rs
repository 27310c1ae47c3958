//! `tabiya solve`: exact Othello endgame scores for positions and OBF files.

use std::process::ExitCode;

use crate::args::Global;
use crate::report::CliError;

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct SolveOptions {}

pub fn solve(_options: &SolveOptions, _global: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::unsupported("solving Othello positions"))
}
