//! ChessBase CTG books: info, probe, verify, dump and conversion.

use std::path::Path;
use std::process::ExitCode;

use tabiya_io::Format;

use crate::args::*;
use crate::report::CliError;

const FORMAT: Format = Format::Ctg;

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ProbeOptions {}

pub fn info(path: &Path, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    super::basic_info(path, FORMAT, args)
}

pub fn verify(_path: &Path, _args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::unsupported(format!("verifying {FORMAT}")))
}

pub fn probe(_path: &Path, _args: &ProbeArgs, _global: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::unsupported(format!("probing {FORMAT}")))
}

pub fn convert(
    _args: &ConvertArgs,
    _global: &Global,
    _from: Format,
    _to: Format,
) -> Option<Result<ExitCode, CliError>> {
    None
}
