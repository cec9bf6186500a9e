//! `stackchess serve`: a local analysis board in the browser for every rule set (docs/serve.md).
//!
//! One page (its HTML, CSS and script compiled in) and one WebSocket per tab. The page holds no
//! rules: it sends clicks as moves, and the server answers with the position, the legal moves
//! with their SAN, the variation tree and the outcome by the rules. Each tab has its own board
//! and, once it asks for analysis or an engine move, its own search thread with an engine whose
//! table keeps the configured size; a new request stops the running search, and a tab that
//! disconnects stops its own. The run directories given at start-up are read once; the page
//! names their games by id and never names a file.
//!
//! The only crate with axum and tokio. [`bind`] reads the runs and binds the address;
//! [`Server::run`] serves until the process ends.

mod board;
mod page;
mod protocol;
mod runs;
mod search;
mod session;
mod tree;

pub use board::MAX_MULTIPV;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use runs::Runs;
use session::Session;
use stackchess_core::Move;
use stackchess_search::SearchConfig;
use stackchess_variants::Variant;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc::unbounded_channel;

/// The largest message the page may send (a position editor's placement is under 300 bytes).
const MAX_MESSAGE: usize = 64 * 1024;

/// What the server offers and how it runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to bind (127.0.0.1 by default: only this machine).
    pub host: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The rule sets the page may choose, each with its engine settings, the first shown first.
    pub variants: Vec<(Variant, SearchConfig)>,
    /// Run directories (or `games.csv` files) whose games the page lists.
    pub runs: Vec<PathBuf>,
    /// Search threads for each tab's engine.
    pub threads: usize,
    /// The most positions a tab's move tree holds.
    pub cap: usize,
    /// The most tabs connected at once.
    pub max_sessions: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8642,
            variants: Vec::new(),
            runs: Vec::new(),
            threads: 1,
            cap: 5000,
            max_sessions: 16,
        }
    }
}

/// What cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// No rule set to offer.
    #[error("no rule set to offer")]
    NoVariants,
    /// A run's records could not be read.
    #[error("reading {path}: {message}")]
    Runs {
        /// The file.
        path: String,
        /// What was wrong.
        message: String,
    },
    /// The address could not be bound, or the runtime not started.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
}

/// What the server's tabs share.
pub(crate) struct App {
    variants: Vec<(Variant, SearchConfig)>,
    runs: Runs,
    threads: usize,
    cap: usize,
    max_sessions: usize,
    page: String,
    sessions: AtomicUsize,
    searching: Arc<AtomicUsize>,
}

/// What a tab's loop receives besides the page's frames.
pub(crate) enum Event {
    /// A frame to send.
    Text(String),
    /// A search ended by itself.
    Done {
        /// Its job.
        job: u64,
        /// The node it searched.
        node: usize,
        /// Its move.
        best: Option<Move>,
        /// Its time.
        elapsed: Duration,
    },
}

/// Counts for tests and logs: tabs connected, searches running.
#[derive(Clone)]
pub struct Stats(Arc<App>);

impl Stats {
    /// Tabs connected.
    #[must_use]
    pub fn sessions(&self) -> usize {
        self.0.sessions.load(Ordering::SeqCst)
    }
    /// Searches running.
    #[must_use]
    pub fn searching(&self) -> usize {
        self.0.searching.load(Ordering::SeqCst)
    }
}

/// A bound server, not yet serving.
pub struct Server {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    app: Arc<App>,
}

/// Reads the run directories and binds the address.
///
/// # Errors
/// No rule set, an unreadable run, an address that cannot be bound.
pub fn bind(options: Options) -> Result<Server, ServeError> {
    if options.variants.is_empty() {
        return Err(ServeError::NoVariants);
    }
    let runs = Runs::read(&options.runs)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()
        .map_err(|source| ServeError::Io { what: "starting the runtime".to_owned(), source })?;
    let at = SocketAddr::new(options.host, options.port);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(at))
        .map_err(|source| ServeError::Io { what: format!("binding {at}"), source })?;
    let addr =
        listener.local_addr().map_err(|source| ServeError::Io { what: "the bound address".to_owned(), source })?;
    let app = Arc::new(App {
        variants: options.variants,
        runs,
        threads: options.threads.max(1),
        cap: options.cap.max(1),
        max_sessions: options.max_sessions.max(1),
        page: page::page(),
        sessions: AtomicUsize::new(0),
        searching: Arc::new(AtomicUsize::new(0)),
    });
    Ok(Server { runtime, listener, addr, app })
}

impl Server {
    /// The address bound (with the port chosen when 0 was asked).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Notes on the runs read.
    #[must_use]
    pub fn notes(&self) -> Vec<String> {
        self.app.runs.notes.clone()
    }

    /// The counts of tabs and searches.
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats(Arc::clone(&self.app))
    }

    /// Serves until the process ends.
    ///
    /// # Errors
    /// When the listener fails.
    pub fn run(self) -> Result<(), ServeError> {
        let router = Router::new()
            .route("/", get(index))
            .route("/ws", get(socket))
            .fallback(|| async { (StatusCode::NOT_FOUND, "not found") })
            .with_state(self.app);
        self.runtime
            .block_on(async move { axum::serve(self.listener, router).await })
            .map_err(|source| ServeError::Io { what: "serving".to_owned(), source })
    }
}

async fn index(State(app): State<Arc<App>>) -> Response {
    ([(header::CACHE_CONTROL, "no-store")], Html(app.page.clone())).into_response()
}

/// Whether a WebSocket request comes from this server's own page: no `Origin` (not a browser),
/// or one whose host is the `Host` asked for (another site's page may not drive the engine).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    origin.to_str().is_ok_and(|o| o.strip_prefix("http://").is_some_and(|rest| rest == host))
}

async fn socket(State(app): State<Arc<App>>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "only this server's own page may connect").into_response();
    }
    if app.sessions.load(Ordering::SeqCst) >= app.max_sessions {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many tabs are connected").into_response();
    }
    ws.max_message_size(MAX_MESSAGE).max_frame_size(MAX_MESSAGE).on_upgrade(move |s| tab(app, s))
}

/// Counts a tab while it lives.
struct Counted(Arc<App>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.sessions.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn tab(app: Arc<App>, mut ws: WebSocket) {
    app.sessions.fetch_add(1, Ordering::SeqCst);
    let _counted = Counted(Arc::clone(&app));
    let (tx, mut rx) = unbounded_channel::<Event>();
    let mut session = match Session::new(app, tx) {
        Ok(s) => s,
        Err(e) => {
            let _ = ws.send(Message::Text(protocol::error(e).into())).await;
            return;
        }
    };
    loop {
        tokio::select! {
            frame = ws.recv() => match frame {
                Some(Ok(Message::Text(t))) => session.text(t.as_str()),
                Some(Ok(Message::Binary(_))) => session.error("binary frames are not understood: send JSON text"),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            event = rx.recv() => match event {
                Some(Event::Text(t)) => {
                    if ws.send(Message::Text(t.into())).await.is_err() {
                        break;
                    }
                }
                Some(Event::Done { job, node, best, elapsed }) => session.done(job, node, best, elapsed),
                None => break,
            },
        }
    }
    // Dropping the session drops its board, whose search stops.
    drop(session);
}
