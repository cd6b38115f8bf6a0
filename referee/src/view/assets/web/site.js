// Every page of the game server's site, last: the page is ready (its own scripts ran
// before this one), marked on <html> as the replay pages mark it (data-ready).
"use strict";
document.documentElement.dataset.ready = "1";
