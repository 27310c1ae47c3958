//! `tabiya`: a thin command line over the tabiya libraries. No format logic lives here: each
//! file in `formats/` turns arguments into library calls and library results into reports.

mod args;
mod formats;
mod report;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info(a) => formats::info(a, &cli.global),
        Command::Convert(a) => formats::convert(a, &cli.global),
        Command::Probe(a) => formats::probe(a, &cli.global),
        Command::Book(a) => formats::book(a, &cli.global),
        Command::Verify(a) => formats::verify(a, &cli.global),
        Command::Solve(a) => formats::solve(a, &cli.global),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tabiya: {e}");
            e.exit_code()
        }
    }
}
