//! Wthor (.wtb .wtd .pzz WTHOR.JOU WTHOR.TRN) and Othello text formats: info, verify, conversion.

use std::path::Path;
use std::process::ExitCode;

use tabiya_io::Format;

use crate::args::*;
use crate::report::CliError;

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {}

pub fn info(path: &Path, format: Format, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    super::basic_info(path, format, args)
}

pub fn verify(_path: &Path, format: Format, _args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::unsupported(format!("verifying {format}")))
}

pub fn convert(
    _args: &ConvertArgs,
    _global: &Global,
    _from: Format,
    _to: Format,
) -> Option<Result<ExitCode, CliError>> {
    None
}

/// `tabiya verify DIR`: every Wthor file in a directory.
pub fn verify_dir(path: &Path, _args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::unsupported(format!("verifying the directory {}", path.display())))
}
