//! `tabiya serve`: opens the sources, prints the explorer's address, answers until stopped.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;

use tabiya_explorer::{Explorer, Server};

use crate::args::{Global, ServeArgs};
use crate::report::CliError;

/// Threads answering requests: a page asks for a few files at once.
const WORKERS: usize = 4;

pub fn serve(args: &ServeArgs, global: &Global) -> Result<ExitCode, CliError> {
    if !args.host.is_loopback() && !args.public {
        return Err(CliError::Usage(format!(
            "--host {}: the explorer answers anyone who can reach it; add --public to serve beyond this machine",
            args.host
        )));
    }
    let mut explorer = Explorer::new();
    for path in &args.sources {
        let summary = explorer.open(path).map_err(CliError::input)?;
        if !global.quiet {
            match summary.games {
                Some(games) => eprintln!("{}: {games} games counted in memory", path.display()),
                None => eprintln!("{}: {} book", path.display(), summary.format),
            }
        }
        // Games that could not be read are named, whatever --quiet says: they are missing
        // from the tables.
        for problem in &summary.unreadable {
            eprintln!("{}: {problem}: left out", path.display());
        }
    }
    let address = SocketAddr::new(args.host, args.port);
    let server = Server::bind(address, explorer).map_err(|e| CliError::Usage(format!("{address}: {e}")))?;
    let bound = server.address().map_err(|e| CliError::Usage(format!("{address}: {e}")))?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://{bound}/").and_then(|()| out.flush()).map_err(|e| CliError::Output(e.to_string()))?;
    drop(out);
    server.run(WORKERS).map_err(|e| CliError::Usage(format!("{bound}: {e}")))?;
    Ok(ExitCode::SUCCESS)
}

/// The address `--host` takes by default: this machine only.
pub fn loopback() -> IpAddr {
    IpAddr::from([127, 0, 0, 1])
}
