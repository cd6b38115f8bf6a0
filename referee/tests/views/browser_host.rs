//! The one Chromium a test binary's pages share (`tests/common/browser_host.rs`,
//! `tests/browser/host.mjs`): each page still gets a browser of its own as far as it can
//! see (no storage left by another test's page), and a browser that died is replaced for
//! the next page instead of failing every page after it.

use crate::common::{self, browser_host};
use crate::viewer_page;

#[test]
fn pages_share_one_browser_but_no_storage_and_a_dead_one_is_replaced() {
    let test = "pages_share_one_browser_but_no_storage_and_a_dead_one_is_replaced";
    let Some(chromium) = common::browser_ready(test) else {
        return;
    };
    let dir = viewer_page::temp_dir("shared-browser");
    viewer_page::play(&dir, 3, true);
    let page = dir.join("replay.html");
    let read = "String(localStorage.getItem('left'))";
    let first = viewer_page::open(
        &chromium,
        &page,
        &[
            "--before",
            "localStorage.setItem('left', 'by the first page')",
            "--eval",
            read,
        ],
    );
    assert_eq!(first.eval(0), "by the first page");
    let host = browser_host::pid().expect("the shared browser runs after a page");
    let second = viewer_page::open(&chromium, &page, &["--eval", read]);
    assert_eq!(
        second.eval(0),
        "null",
        "a page saw what another test's page left in its storage"
    );
    assert_eq!(
        browser_host::pid(),
        Some(host),
        "the second page started a browser of its own"
    );
    // The host killed between two pages (as a crash would): the next page gets a new one.
    {
        let _one = browser_host::one_page();
        // SAFETY: kill takes a pid and a signal number.
        unsafe { nix::libc::kill(host as i32, nix::libc::SIGKILL) };
        assert!(common::wait_exit(
            host as i32,
            std::time::Duration::from_secs(10)
        ));
    }
    let third = viewer_page::open(&chromium, &page, &["--eval", read]);
    assert_eq!(third.eval(0), "null");
    assert!(
        browser_host::pid().is_some_and(|pid| pid != host),
        "no new browser after the first was killed"
    );
}
