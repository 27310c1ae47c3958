//! The server: a few threads taking turns at one listening socket, one request per
//! connection. A request that cannot be read gets an error status; a handler that panics gets
//! `500`; the server goes on.

use std::io::{self, BufWriter};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use crate::api;
use crate::explorer::Explorer;
use crate::http::{BadRequest, Response, read_request, write_response};

/// How long a client may take to send its request or read the answer.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);

/// An explorer listening on a socket.
pub struct Server {
    listener: TcpListener,
    explorer: Arc<Explorer>,
}

impl Server {
    /// Listens on `address` (port 0: any free port) for `explorer`.
    pub fn bind(address: impl ToSocketAddrs, explorer: Explorer) -> io::Result<Server> {
        Ok(Server { listener: TcpListener::bind(address)?, explorer: Arc::new(explorer) })
    }

    /// The address listened on (the port chosen when 0 was asked).
    pub fn address(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers requests on `workers` threads (at least one), until the process ends.
    pub fn run(self, workers: usize) -> io::Result<()> {
        let mut threads = Vec::new();
        for _ in 0..workers.max(1) {
            let listener = self.listener.try_clone()?;
            let explorer = Arc::clone(&self.explorer);
            threads.push(std::thread::spawn(move || {
                loop {
                    // A failed accept (a client gone before it was taken, no file descriptor
                    // left) concerns that client only.
                    if let Ok((stream, _)) = listener.accept() {
                        serve_connection(stream, &explorer);
                    }
                }
            }));
        }
        for thread in threads {
            let _ = thread.join();
        }
        Ok(())
    }
}

/// Reads one request from `stream` and answers it; a client that went away is no error.
fn serve_connection(stream: TcpStream, explorer: &Explorer) {
    let _ = stream.set_read_timeout(Some(CLIENT_TIMEOUT));
    let _ = stream.set_write_timeout(Some(CLIENT_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let (response, head_only) = match read_request(&stream) {
        Ok(request) => {
            let response = catch_unwind(AssertUnwindSafe(|| api::handle(explorer, &request)))
                .unwrap_or_else(|_| Response::error(500, "the explorer failed on this request"));
            (response, request.method == "HEAD")
        }
        Err(BadRequest::Io(_)) => return,
        Err(e @ BadRequest::TooLong) => (Response::error(431, &e.to_string()), false),
        Err(e @ BadRequest::Malformed) => (Response::error(400, &e.to_string()), false),
    };
    let _ = write_response(&mut BufWriter::new(&stream), &response, head_only);
}
