import { CLIENT_JS } from './client.js.ts';
import { pageShell } from './shell.ts';

/** The member page at `/`: act as any member of any emulated workspace. */
export function memberPage(): string {
  return pageShell(
    'Slack emulator',
    `<div class="app">
  <header class="top"><span class="brand">Slack emulator</span>
    <select id="team" aria-label="Workspace"></select>
    <input id="search" placeholder="Find a member…" aria-label="Find a member">
    <select id="member" aria-label="Act as member"></select></header>
  <nav class="side" id="side"></nav>
  <section class="main"><div class="head" id="head"></div><div class="notice" id="notice" style="display:none"></div>
    <div class="msgs" id="msgs"></div>
    <form class="composer" id="composer"><textarea placeholder="Message"></textarea><button class="primary">Send</button></form></section>
  <section class="thread"><div class="head">Thread</div><div class="msgs" id="thread-msgs"></div>
    <form class="composer" id="thread-composer"><textarea placeholder="Reply…"></textarea><button class="primary">Reply</button></form></section>
</div><div class="overlay" id="overlay" style="display:none"></div>`,
    CLIENT_JS,
  );
}
