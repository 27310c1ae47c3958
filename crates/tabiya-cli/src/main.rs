//! `tabiya`: a thin command line over the tabiya libraries. No format logic lives here: each
//! file in `formats/` turns arguments into library calls and library results into reports.

mod args;
mod formats;
mod manual;
mod registry;
mod report;

use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let command = Cli::command();
    let matches = command.clone().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    if let Some((name, sub)) = matches.subcommand() {
        // Only arguments: clap also lists the groups of the flattened option structs.
        let arguments: Vec<&str> = command
            .find_subcommand(name)
            .map(|c| c.get_arguments().map(|a| a.get_id().as_str()).collect())
            .unwrap_or_default();
        cli.global.given = sub
            .ids()
            .filter(|id| arguments.contains(&id.as_str()))
            .filter(|id| sub.value_source(id.as_str()) == Some(ValueSource::CommandLine))
            .map(|id| id.as_str().to_owned())
            .collect();
    }
    let result = match &cli.command {
        Command::Info(a) => formats::info(a, &cli.global),
        Command::Convert(a) => formats::convert(a, &cli.global),
        Command::Probe(a) => formats::probe(a, &cli.global),
        Command::Book(a) => formats::book(a, &cli.global),
        Command::Verify(a) => formats::verify(a, &cli.global),
        Command::Solve(a) => formats::solve(a, &cli.global),
        Command::Completions(a) => manual::completions(a.shell, command),
        Command::Man(a) => manual::man(command, a.command.as_deref()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tabiya: {e}");
            e.exit_code()
        }
    }
}
