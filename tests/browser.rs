//! Headless Chromium, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
//! commands on file descriptor 3, replies and events on 4, each a JSON text ended by a NUL byte, so
//! no port or websocket client is needed): the classroom page's tests load the page as a teacher's
//! browser would, press its keys, move the mouse over it, read its state back, and count what it
//! logs and every request it makes. It runs as a [`Job`] in a session of its own with a fresh
//! profile and flags that keep it off the network, so a failing test kills it with all its helper
//! processes. The browser is Debian's `chromium` (`scripts/setup.sh` installs it) or the program
//! named by `MPI_LCS_TEST_CHROMIUM`; when it is missing the tests fail with the setup hint, never
//! skip.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::Job;

/// How long Chromium may take to answer one command before the test fails: a hang guard only,
/// generous for a loaded machine; no test asserts how long the page took.
const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// The browser program: `MPI_LCS_TEST_CHROMIUM`, else the first of Debian's and other
/// distributions' names that runs.
pub fn chromium() -> String {
    let candidates = match std::env::var("MPI_LCS_TEST_CHROMIUM") {
        Ok(program) => vec![program],
        Err(_) => ["chromium", "chromium-browser", "google-chrome"]
            .map(String::from)
            .to_vec(),
    };
    for name in &candidates {
        let found = Command::new("sh")
            .args(["-c", "command -v \"$1\"", "sh", name])
            .output()
            .is_ok_and(|o| o.status.success());
        if found {
            return name.clone();
        }
    }
    panic!(
        "no Chromium found (tried {}): run scripts/setup.sh (or `make test`) to install \
         Debian's chromium, or set MPI_LCS_TEST_CHROMIUM to a Chromium or Chrome",
        candidates.join(", ")
    )
}

/// A pipe's two ends, both closed on exec (the child gets its copies by `dup2`).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`, which we then own.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just created and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

/// A running headless Chromium.
pub struct Browser {
    job: Job,
    commands: File,
    incoming: Receiver<Value>,
    /// Events received while waiting for replies, oldest first.
    events: VecDeque<Value>,
    next_id: u64,
    _profile: tempfile::TempDir,
}

/// What a loaded page did besides showing itself.
#[derive(Debug, Default, Clone)]
pub struct Activity {
    /// Console errors, uncaught exceptions and error log entries (a blocked request too).
    pub errors: Vec<String>,
    /// Every URL the page requested.
    pub requests: Vec<String>,
}

impl Browser {
    pub fn start() -> Browser {
        let program = chromium();
        let profile = tempfile::tempdir().expect("profile dir");
        // Chromium reads commands from fd 3 and writes to fd 4.
        let (their_in, commands) = pipe();
        let (replies, their_out) = pipe();
        let (their_in, their_out) = (their_in.into_raw_fd(), their_out.into_raw_fd());
        let mut cmd = Command::new(&program);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-default-apps",
            "--mute-audio",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
            "--window-size=1024,768",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank");
        // SAFETY: only async-signal-safe calls between fork and exec. Each end is first
        // moved above 9, so that neither `dup2` overwrites the other; `dup2` clears
        // close-on-exec on the copies.
        unsafe {
            cmd.pre_exec(move || {
                let high_in = libc::fcntl(their_in, libc::F_DUPFD_CLOEXEC, 10);
                let high_out = libc::fcntl(their_out, libc::F_DUPFD_CLOEXEC, 10);
                if high_in < 0
                    || high_out < 0
                    || libc::dup2(high_in, 3) < 0
                    || libc::dup2(high_out, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let job = Job::spawn(cmd);
        // The child holds its ends now; ours must close, or end-of-file never comes.
        // SAFETY: these descriptors are ours and used nowhere else.
        unsafe {
            drop(OwnedFd::from_raw_fd(their_in));
            drop(OwnedFd::from_raw_fd(their_out));
        }
        let (tx, incoming) = mpsc::channel();
        let mut reader = File::from(replies);
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            while let Ok(got) = reader.read(&mut chunk) {
                if got == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..got]);
                while let Some(end) = buf.iter().position(|&b| b == 0) {
                    let message: Vec<u8> = buf.drain(..=end).collect();
                    match serde_json::from_slice::<Value>(&message[..end]) {
                        Ok(v) => {
                            if tx.send(v).is_err() {
                                return;
                            }
                        }
                        Err(e) => panic!("bad DevTools message: {e}"),
                    }
                }
            }
        });
        Browser {
            job,
            commands: File::from(commands),
            incoming,
            events: VecDeque::new(),
            next_id: 1,
            _profile: profile,
        }
    }

    /// Sends `method` (to a page's `session`, or to the browser) and waits for its result.
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        if let Err(e) = self.commands.write_all(&bytes) {
            panic!(
                "cannot send {method} to Chromium ({e}); it said:\n{}",
                self.job.stderr_so_far()
            );
        }
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let message = self.receive(deadline, method);
            if message["id"] == json!(id) {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed: {error}");
                }
                return message["result"].clone();
            }
            self.events.push_back(message);
        }
    }

    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(v) => v,
            Err(e) => panic!(
                "no answer from Chromium while waiting for {waiting_for} ({e}); it said:\n{}",
                self.job.stderr_so_far()
            ),
        }
    }

    /// Waits for the event `method` of `session`, keeping the others.
    fn wait_event(&mut self, session: &str, method: &str) -> Value {
        if let Some(at) = self
            .events
            .iter()
            .position(|e| e["method"] == method && e["sessionId"] == session)
        {
            return self.events.remove(at).unwrap();
        }
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let message = self.receive(deadline, method);
            if message["method"] == method && message["sessionId"] == session {
                return message;
            }
            self.events.push_back(message);
        }
    }

    /// Opens `path` in a new 1024 x 768 tab, watching its console and its requests, and
    /// waits until it has loaded.
    pub fn open(&mut self, path: &Path, fragment: &str) -> Tab<'_> {
        self.open_at(path, fragment, (1024, 768))
    }

    /// Opens `path` in a new tab of `width x height` CSS pixels (one device pixel each),
    /// watching its console and its requests, and waits until it has loaded.
    pub fn open_at(&mut self, path: &Path, fragment: &str, (width, height): (u32, u32)) -> Tab<'_> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let session = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        )["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        for domain in ["Runtime", "Log", "Network", "Page"] {
            self.call(Some(&session), &format!("{domain}.enable"), json!({}));
        }
        self.call(
            Some(&session),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
        let url = format!("file://{}", path.display());
        let started = Instant::now();
        self.call(
            Some(&session),
            "Page.navigate",
            json!({"url": format!("{url}{fragment}")}),
        );
        self.wait_event(&session, "Page.loadEventFired");
        let load = started.elapsed();
        Tab {
            browser: self,
            session,
            url,
            load,
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.job.kill();
    }
}

/// One page in the browser.
pub struct Tab<'a> {
    browser: &'a mut Browser,
    session: String,
    /// The page's own URL (without fragment).
    pub url: String,
    /// From the navigation command to the load event, as the test saw it.
    pub load: Duration,
}

impl Tab<'_> {
    /// Evaluates `expression` in the page and returns its value (promises awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.browser.call(
            Some(&self.session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = result.get("exceptionDetails") {
            panic!("{expression} threw: {e}");
        }
        result["result"]["value"].clone()
    }

    /// Presses and releases `key` (a DOM key name: `ArrowRight`, `ArrowLeft`, ` `, `End`, or
    /// one of the letters the page knows).
    pub fn press(&mut self, key: &str) {
        self.press_with(key, 0);
    }

    /// Presses and releases `key` with `modifiers` held (the protocol's bits: 8 is Shift).
    pub fn press_with(&mut self, key: &str, modifiers: u32) {
        let (code, vk) = match key {
            "ArrowRight" => ("ArrowRight", 39),
            "ArrowLeft" => ("ArrowLeft", 37),
            "ArrowUp" => ("ArrowUp", 38),
            "ArrowDown" => ("ArrowDown", 40),
            " " => ("Space", 32),
            "Home" => ("Home", 36),
            "End" => ("End", 35),
            "t" => ("KeyT", 84),
            "p" => ("KeyP", 80),
            "s" => ("KeyS", 83),
            "q" => ("KeyQ", 81),
            other => panic!("no key code for {other:?}"),
        };
        for kind in ["rawKeyDown", "keyUp"] {
            self.browser.call(
                Some(&self.session),
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk,
                       "nativeVirtualKeyCode": vk, "modifiers": modifiers}),
            );
        }
    }

    /// Moves the mouse to `(x, y)` in the viewport.
    pub fn hover(&mut self, x: f64, y: f64) {
        self.browser.call(
            Some(&self.session),
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        );
    }

    /// Everything the page logged as an error and every URL it requested, so far.
    pub fn activity(&mut self) -> Activity {
        // A round trip, so that every event the page caused so far has arrived.
        self.eval("0");
        let mut activity = Activity::default();
        let session = json!(self.session);
        for e in self
            .browser
            .events
            .iter()
            .filter(|e| e["sessionId"] == session)
        {
            let params = &e["params"];
            match e["method"].as_str().unwrap_or_default() {
                "Runtime.consoleAPICalled" => {
                    let kind = params["type"].as_str().unwrap_or_default();
                    if kind == "error" || kind == "assert" || kind == "warning" {
                        activity
                            .errors
                            .push(format!("console.{kind}: {}", params["args"]));
                    }
                }
                "Runtime.exceptionThrown" => {
                    activity
                        .errors
                        .push(format!("exception: {}", params["exceptionDetails"]));
                }
                "Log.entryAdded" => {
                    let level = params["entry"]["level"].as_str().unwrap_or_default();
                    if level == "error" || level == "warning" {
                        activity.errors.push(format!("log: {}", params["entry"]));
                    }
                }
                "Network.requestWillBeSent" => {
                    let url = params["request"]["url"].as_str().unwrap_or_default();
                    activity.requests.push(url.to_owned());
                }
                "Network.loadingFailed" => {
                    activity.errors.push(format!("request failed: {params}"));
                }
                _ => {}
            }
        }
        activity
    }
}
