//! T-BASE tsume shogi (.dia .tjn .rem) and shogi records (KIF, KI2, CSA, SFEN): info, verify,
//! conversion. Everything is `tabiya_shogi`'s; this file parses the options, calls it, prints.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tabiya_shogi::convert::{self, Input};
use tabiya_shogi::{Encoding, Error, Format as S, records, tbase};

use super::{Part, Role, input_format};
use crate::args::*;
use crate::output;
use crate::registry::Format;
use crate::report::{CliError, Output, print, print_info, summary, verdict};

/// The shogi options of `convert`.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// Text encoding of KIF, KI2 and CSA output: shift_jis, euc-jp or utf-8 (default: the
    /// extension's — .kifu/.ki2u are UTF-8 —, else the input's, else Shift-JIS).
    #[arg(long)]
    pub encoding: Option<String>,
}

/// The library's error as the command line's: a file that cannot be written from these inputs
/// is a usage error, the rest is the input's.
fn cli_error(e: Error) -> CliError {
    match e {
        Error::Output(what) => CliError::Usage(what),
        other => CliError::Input(other.to_string()),
    }
}

fn is_tbase(format: S) -> bool {
    matches!(format, S::TbaseDiagrams | S::TbaseSolutions | S::TbaseComments)
}

fn shogi(format: Format) -> Option<S> {
    match format {
        Format::Shogi(f) => Some(f),
        _ => None,
    }
}

pub fn info(path: &Path, format: Format, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let format = shogi(format).ok_or_else(|| CliError::Usage(format!("{format} is not a shogi format")))?;
    let info = if is_tbase(format) { tbase::info(path, format) } else { records::info(path, format) };
    let info = info.map_err(cli_error)?;
    print_info(&info, args.json)
}

pub fn verify(path: &Path, format: Format, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let format = shogi(format).ok_or_else(|| CliError::Usage(format!("{format} is not a shogi format")))?;
    let v = if is_tbase(format) { tbase::verify(path) } else { records::verify(path, format) };
    let v = v.map_err(cli_error)?;
    print(&v, args.json)?;
    Ok(verdict(&v))
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    let (Format::Shogi(_), Format::Shogi(to)) = (from, to) else { return None };
    Some(Box::new(move |args, global| run_convert(args, global, to)))
}

fn run_convert(args: &ConvertArgs, global: &Global, to: S) -> Result<ExitCode, CliError> {
    // Each input in its own format: `a.kif b.ki2 c.csa` are three readers.
    let mut inputs = Vec::new();
    for path in &args.inputs {
        match input_format(path, args.from.as_deref())? {
            (path, Format::Shogi(format)) => inputs.push(Input { path, format }),
            (path, other) => {
                return Err(CliError::Usage(format!("{}: {other} does not convert to {to}", path.display())));
            }
        }
    }
    let encoding = match args.tbase.encoding.as_deref() {
        Some(name) => Some(
            Encoding::from_name(name)
                .ok_or_else(|| CliError::Usage(format!("--encoding {name}: expected shift_jis, euc-jp or utf-8")))?,
        ),
        None => None,
    };
    if to == S::TbaseDiagrams {
        Output::require_file(&args.output, "a T-BASE set")?;
    }
    let output = convert::Output { path: args.output.clone(), format: to, encoding };
    let conversion = convert::convert(&inputs, &output).map_err(cli_error)?;
    for d in &conversion.diagnostics {
        summary(global.quiet, d);
    }
    if to == S::TbaseDiagrams {
        for companion in ["tjn", "rem"].map(|ext| args.output.with_extension(ext)) {
            output::permit(&companion, false)?;
        }
        let transaction = tbase::begin_set(&args.output).map_err(|e| CliError::output(&args.output, e))?;
        tbase::commit_set(transaction, &args.output, &conversion.files)
            .map_err(|e| CliError::output(&args.output, e))?;
        summary(global.quiet, &conversion.summary);
        return Ok(ExitCode::SUCCESS);
    }
    for file in &conversion.files {
        let mut out = Output::create(&file.path)?;
        out.write_all(&file.bytes).map_err(|e| CliError::output(&file.path, e))?;
        out.finish(&file.path)?;
    }
    summary(global.quiet, &conversion.summary);
    Ok(ExitCode::SUCCESS)
}

/// `--encoding` is taken where KIF, KI2 or CSA is written; no other option is shogi's.
pub fn takes(part: Part) -> &'static [&'static str] {
    match (part.role, part.format) {
        (Role::Write, Format::Shogi(S::Kif | S::Ki2 | S::Csa)) => &["encoding"],
        _ => &[],
    }
}
