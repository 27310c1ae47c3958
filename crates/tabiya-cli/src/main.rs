//! `tabiya`: a thin command line over the tabiya libraries. No format logic lives here: each
//! file in `formats/` turns arguments into library calls and library results into reports.

mod args;
mod formats;
mod manual;
mod output;
mod registry;
mod report;
mod serve;

use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};

use crate::args::{Cli, Command};
use crate::report::CliError;

fn main() -> ExitCode {
    // Temporaries go on Ctrl-C, SIGTERM, SIGHUP; a reader that goes away (`| head`) ends the
    // run by SIGPIPE as it ends `cat` (status 141): quietly, and truthfully under pipefail,
    // since the output was cut short. Either way the process dies of the signal, so nothing
    // may report the failed write first: an error or a panic it caused waits for that.
    tabiya_io::cleanup::install_signal_handlers();
    tabiya_io::lock::set_wait_notice(|lock| {
        eprintln!("tabiya: waiting for another writer to finish (it holds {})", lock.display());
    });
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tabiya_io::cleanup::wait_if_interrupted();
        default_hook(info);
    }));
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
    if let Err(e) = check_output(&cli) {
        eprintln!("tabiya: {e}");
        return e.exit_code();
    }
    let result = match &cli.command {
        Command::Info(a) => formats::info(a, &cli.global),
        Command::Convert(a) => formats::convert(a, &cli.global),
        Command::Probe(a) => formats::probe(a, &cli.global),
        Command::Book(a) => formats::book(a, &cli.global),
        Command::Verify(a) => formats::verify(a, &cli.global),
        Command::Select(a) => formats::select::select(a, &cli.global),
        Command::Index(a) => formats::select::index(a, &cli.global),
        Command::Tree(a) => formats::tree::build(a, &cli.global),
        Command::Solve(a) => formats::solve(a, &cli.global),
        Command::Serve(a) => serve::serve(a, &cli.global),
        Command::Formats(a) => formats::catalogue::print(a.json),
        Command::Completions(a) => manual::completions(a.shell, command),
        Command::Man(a) => manual::man(command, a.command.as_deref()),
    };
    tabiya_io::cleanup::wait_if_interrupted();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tabiya: {e}");
            e.exit_code()
        }
    }
}

/// Sets the rule of `output.rs` for the run and applies it to the `-o` path of `convert`,
/// `book` and `tree` before any format starts: for every format at once, including the first file of a
/// multi-file output named by that file. `--append` updates what is there.
fn check_output(cli: &Cli) -> Result<(), CliError> {
    let (inputs, path, append) = match &cli.command {
        Command::Convert(a) => (&a.inputs, &a.output, a.scid.append),
        Command::Book(a) => (&a.inputs, &a.output, a.kvetka.append),
        Command::Select(a) => match &a.output {
            Some(output) => (&a.inputs, output, false),
            None => return Ok(()),
        },
        Command::Tree(a) => (&a.inputs, &a.output, false),
        _ => return Ok(()),
    };
    output::configure(cli.global.force, inputs);
    output::permit(path, append)
}
