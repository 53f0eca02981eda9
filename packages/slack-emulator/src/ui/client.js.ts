/** Browser script of the member page (plain JS, served inline). */
export const CLIENT_JS = String.raw`
const $ = (s) => document.querySelector(s);
const S = { team: '', user: '', channel: '', thread: '', names: {}, surfaces: null };
const EMOJI = { '+1': '👍', thumbsup: '👍', '-1': '👎', heart: '❤️', joy: '😂', tada: '🎉', eyes: '👀', white_check_mark: '✅', raised_hands: '🙌', fire: '🔥', '100': '💯', pray: '🙏', rocket: '🚀', smile: '😄', one: '1️⃣', two: '2️⃣', three: '3️⃣', four: '4️⃣', five: '5️⃣', six: '6️⃣', seven: '7️⃣', eight: '8️⃣', nine: '9️⃣', a: '🅰️', b: '🅱️', clap: '👏', wave: '👋', star: '⭐', bulb: '💡', x: '❌', heavy_check_mark: '✔️', ok_hand: '👌' };
const PICK = ['+1', 'heart', 'joy', 'tada', 'eyes', 'white_check_mark', 'fire', 'one', 'two', 'three', 'four'];
const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const api = async (path, body) => {
  const q = new URLSearchParams({ team: S.team, user: S.user, ...(body && !body.__post ? body : {}) });
  const res = body && body.__post
    ? await fetch('/_ui/api/' + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ team: S.team, user: S.user, ...body }) })
    : await fetch('/_ui/api/' + path + '?' + q);
  return res.json();
};
const post = (path, body) => api(path, { ...body, __post: true });
const emoji = (n) => EMOJI[n] || ':' + n + ':';
const fmt = (text) => esc(text)
  .replace(/&lt;@([UW][A-Z0-9]+)&gt;/g, (_, id) => '<b>@' + esc(S.names[id]?.name || id) + '</b>')
  .replace(/&lt;#([CG][A-Z0-9]+)\|([^&]*)&gt;/g, (_, id, n) => '<b>#' + n + '</b>')
  .replace(/&lt;(https?:[^|&]+)\|([^&]*)&gt;/g, (_, u, l) => '<a href="' + u + '" target="_blank">' + l + '</a>')
  .replace(/:([a-z0-9_+\-]+):/g, (m, n) => EMOJI[n] || m);
const time = (ts) => new Date(Number(ts) * 1000).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

function blockHtml(m) {
  return (m.blocks || []).map((b) => {
    const txt = b.text && b.text.text ? '<div>' + fmt(b.text.text) + '</div>' : '';
    const el = [...(b.elements || []), ...(b.accessory ? [b.accessory] : [])];
    const btns = el.map((e) => e.type === 'button'
      ? '<button class="btn ' + (e.style || '') + '" data-act="' + esc(e.action_id) + '" data-ts="' + m.ts + '">' + esc(e.text && e.text.text) + '</button>'
      : e.type === 'static_select' ? '<select data-sel="' + esc(e.action_id) + '" data-ts="' + m.ts + '"><option value="">' + esc(e.placeholder ? e.placeholder.text : 'Choose') + '</option>' + (e.options || []).map((o) => '<option value="' + esc(o.value) + '">' + esc(o.text.text) + '</option>').join('') + '</select>'
      : e.text && typeof e.text === 'string' ? '<span class="when">' + fmt(e.text) + '</span>' : '').join('');
    return b.type === 'divider' ? '<hr>' : b.type === 'header' ? '<h3>' + esc(b.text.text) + '</h3>' : txt + (btns ? '<div>' + btns + '</div>' : '');
  }).join('');
}

function msgHtml(m, inThread) {
  const who = S.names[m.user] || {};
  const name = m.username || (m.bot_profile && m.bot_profile.name) || who.name || m.user || 'bot';
  const avatar = who.avatar || (m.bot_profile && m.bot_profile.icons.image_72) || '/avatars/' + (m.bot_id || 'B') + '.svg';
  const sys = m.subtype === 'channel_join' || m.subtype === 'channel_leave';
  const chips = (m.reactions || []).map((r) => '<span class="chip ' + (r.users.includes(S.user) ? 'mine' : '') + '" data-react="' + r.name + '" data-ts="' + m.ts + '" title="' + esc(r.users.map((u) => (S.names[u] || {}).name || u).join(', ')) + '">' + emoji(r.name) + ' ' + r.count + '</span>').join('');
  const add = '<button class="link" data-pick="' + m.ts + '">＋react</button>';
  const reply = !inThread && m.reply_count ? '<button class="link" data-thread="' + m.ts + '">' + m.reply_count + ' repl' + (m.reply_count > 1 ? 'ies' : 'y') + '</button> ' : !inThread ? '<button class="link" data-thread="' + m.ts + '">reply</button> ' : '';
  const files = (m.files || []).map((f) => '<div>📎 <a href="' + f.url_private + '" target="_blank">' + esc(f.title) + '</a></div>').join('');
  return '<div class="msg"><img src="' + avatar + '" alt=""><div class="body"><span class="who">' + esc(name) + '</span><span class="when">' + time(m.ts) + (m.edited ? ' (edited)' : '') + '</span>' +
    (m.blocks && m.blocks.length ? '' : '<div class="' + (sys ? 'sys' : '') + '">' + fmt(m.text) + '</div>') + '<div class="blocks">' + blockHtml(m) + '</div>' + files +
    (sys ? '' : '<div class="chips">' + chips + ' ' + reply + add + '</div>') + '</div></div>';
}

async function loadSidebar() {
  const s = await api('sidebar');
  const link = (c, label) => '<a href="#" data-ch="' + c.id + '" class="' + (c.id === S.channel ? 'active' : '') + '">' + label + '</a>';
  $('#side').innerHTML = '<h4>Channels</h4>' + s.channels.map((c) => link(c, (c.isPrivate ? '🔒 ' : '# ') + esc(c.name))).join('') +
    '<h4>Direct messages</h4>' + (s.dms.map((d) => link(d, (d.bot ? '🤖 ' : '● ') + esc(d.name))).join('') || '<div class="empty">none</div>') +
    '<h4>Join a channel</h4>' + s.others.map((c) => '<a href="#" data-join="' + c.id + '"># ' + esc(c.name) + '</a>').join('');
  if (!S.channel && s.channels[0]) { S.channel = s.channels[0].id; loadSidebar(); loadMessages(); }
}

async function loadMessages() {
  if (!S.channel) return;
  const r = await api('messages', { channel: S.channel });
  Object.assign(S.names, r.names);
  const label = r.channel && r.channel.name ? '#' + r.channel.name : 'Direct message';
  $('#head').textContent = label;
  const box = $('#msgs');
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.innerHTML = r.messages.map((m) => msgHtml(m, false)).join('') || '<div class="empty">No messages yet.</div>';
  if (atBottom) box.scrollTop = box.scrollHeight;
}

async function loadThread() {
  if (!S.thread) { $('#thread-msgs').innerHTML = '<div class="empty">Pick “reply” on a message to open its thread.</div>'; return; }
  const r = await api('thread', { channel: S.channel, ts: S.thread });
  Object.assign(S.names, r.names);
  $('#thread-msgs').innerHTML = r.messages.map((m) => msgHtml(m, true)).join('');
}

function inputHtml(b, errors) {
  const e = b.element || {}; const id = esc(b.block_id) + '|' + esc(e.action_id);
  let field = '';
  if (e.type === 'plain_text_input' || e.type === 'number_input' || e.type === 'email_text_input' || e.type === 'url_text_input') field = e.multiline ? '<textarea data-in="' + id + '" data-type="' + e.type + '" rows="4"></textarea>' : '<input data-in="' + id + '" data-type="' + e.type + '">';
  else if (e.type === 'static_select' || e.type === 'radio_buttons') field = '<select data-in="' + id + '" data-type="' + e.type + '"><option value=""></option>' + (e.options || []).map((o) => '<option value="' + esc(o.value) + '">' + esc(o.text.text) + '</option>').join('') + '</select>';
  else if (e.type === 'checkboxes' || e.type === 'multi_static_select') field = (e.options || []).map((o) => '<label style="font-weight:400"><input type="checkbox" data-in="' + id + '" data-type="' + e.type + '" value="' + esc(o.value) + '"> ' + esc(o.text.text) + '</label>').join('');
  else if (e.type === 'datepicker') field = '<input type="date" data-in="' + id + '" data-type="datepicker">';
  else field = '<input data-in="' + id + '" data-type="plain_text_input">';
  const err = errors && errors[b.block_id] ? '<div class="err">' + esc(errors[b.block_id]) + '</div>' : '';
  return '<div class="field"><label>' + esc(b.label && b.label.text) + (b.optional ? ' <small>(optional)</small>' : '') + '</label>' + field + err + '</div>';
}

function renderSurface(s, errors) {
  const o = $('#overlay');
  if (!s.view && !s.dialog) { o.style.display = 'none'; o.innerHTML = ''; return; }
  o.style.display = 'flex';
  if (s.view) {
    const v = s.view;
    const body = (v.blocks || []).map((b) => b.type === 'input' ? inputHtml(b, errors) : '<div class="blocks">' + blockHtml({ blocks: [b], ts: '' }) + '</div>').join('');
    o.innerHTML = '<form class="modal" id="surface"><h2>' + esc(v.title && v.title.text) + '</h2>' + body + '<div class="buttons"><button type="button" class="secondary" id="close">' + esc((v.close && v.close.text) || 'Cancel') + '</button>' + (v.submit ? '<button class="primary">' + esc(v.submit.text) + '</button>' : '') + '</div></form>';
  } else {
    const d = s.dialog.dialog;
    const body = (d.elements || []).map((e) => inputHtml({ block_id: e.name, label: { text: e.label }, optional: e.optional, element: { action_id: e.name, type: e.type === 'select' ? 'static_select' : 'plain_text_input', multiline: e.type === 'textarea', options: (e.options || []).map((x) => ({ value: x.value, text: { text: x.label } })) } }, errors)).join('');
    o.innerHTML = '<form class="modal" id="surface" data-dialog="1"><h2>' + esc(d.title) + '</h2>' + body + '<div class="buttons"><button type="button" class="secondary" id="close">Cancel</button><button class="primary">' + esc(d.submit_label || 'Submit') + '</button></div></form>';
  }
}

function collect(form) {
  const values = {};
  form.querySelectorAll('[data-in]').forEach((el) => {
    const [block, action] = el.dataset.in.split('|'); const t = el.dataset.type;
    values[block] = values[block] || {};
    const cur = values[block][action] || { type: t };
    if (t === 'checkboxes' || t === 'multi_static_select') { cur.selected_options = cur.selected_options || []; if (el.checked) cur.selected_options.push({ value: el.value, text: { type: 'plain_text', text: el.parentElement.textContent.trim() } }); }
    else if (t === 'static_select' || t === 'radio_buttons') cur.selected_option = el.value ? { value: el.value, text: { type: 'plain_text', text: el.options[el.selectedIndex].text } } : null;
    else if (t === 'datepicker') cur.selected_date = el.value || null;
    else cur.value = el.value;
    values[block][action] = cur;
  });
  return values;
}

function refill(form, values) {
  if (!form) return;
  form.querySelectorAll('[data-in]').forEach((el) => {
    const [block, action] = el.dataset.in.split('|'); const v = values[block] && values[block][action];
    if (!v) return;
    if (el.type === 'checkbox') el.checked = (v.selected_options || []).some((o) => o.value === el.value);
    else if (v.selected_option !== undefined) el.value = v.selected_option ? v.selected_option.value : '';
    else if (v.selected_date !== undefined) el.value = v.selected_date || '';
    else el.value = v.value ?? '';
  });
}

async function pollSurfaces() {
  if (!S.user) return;
  const s = await api('surfaces');
  const key = JSON.stringify(s);
  if (key !== S.surfaces) { S.surfaces = key; renderSurface(s); }
}

document.addEventListener('click', async (ev) => {
  const t = ev.target.closest('[data-ch],[data-join],[data-thread],[data-react],[data-pick],[data-act],#close,[data-emoji]');
  if (!t) return;
  ev.preventDefault();
  if (t.dataset.ch) { S.channel = t.dataset.ch; S.thread = ''; loadSidebar(); loadMessages(); loadThread(); }
  else if (t.dataset.join) { await post('join', { channel: t.dataset.join }); S.channel = t.dataset.join; loadSidebar(); loadMessages(); }
  else if (t.dataset.thread) { S.thread = t.dataset.thread; loadThread(); }
  else if (t.dataset.react) { await post('react', { channel: S.channel, ts: t.dataset.ts, name: t.dataset.react }); refresh(); }
  else if (t.dataset.pick) { const box = document.createElement('span'); box.innerHTML = PICK.map((n) => '<span class="chip" data-emoji="' + n + '" data-ts="' + t.dataset.pick + '">' + emoji(n) + '</span>').join(''); t.replaceWith(box); }
  else if (t.dataset.emoji) { await post('react', { channel: S.channel, ts: t.dataset.ts, name: t.dataset.emoji }); refresh(); }
  else if (t.dataset.act) { const r = await post('action', { channel: S.channel, ts: t.dataset.ts, action_id: t.dataset.act }); note(r); setTimeout(pollSurfaces, 400); setTimeout(pollSurfaces, 1200); }
  else if (t.id === 'close') { const d = $('#surface').dataset.dialog; await post(d ? 'dialog-close' : 'view-close', {}); S.surfaces = null; pollSurfaces(); }
});
document.addEventListener('change', async (ev) => {
  const t = ev.target;
  if (t.dataset && t.dataset.sel && t.value) { const r = await post('action', { channel: S.channel, ts: t.dataset.ts, action_id: t.dataset.sel, value: t.value }); note(r); }
});
document.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  if (f.id === 'composer' || f.id === 'thread-composer') {
    const ta = f.querySelector('textarea'); if (!ta.value.trim()) return;
    await post('post', { channel: S.channel, text: ta.value, thread_ts: f.id === 'thread-composer' ? S.thread : '' });
    ta.value = ''; refresh();
  } else if (f.id === 'surface') {
    const values = collect(f);
    let r;
    if (f.dataset.dialog) { const sub = {}; for (const [k, v] of Object.entries(values)) { const x = Object.values(v)[0]; sub[k] = x.value ?? (x.selected_option ? x.selected_option.value : null); } r = await post('dialog-submit', { submission: sub }); }
    else r = await post('view-submit', { view_id: JSON.parse(S.surfaces).view.id, values });
    note(r);
    const errs = r.body && (r.body.response_action === 'errors' ? r.body.errors : r.body.errors && Object.fromEntries(r.body.errors.map((e) => [e.name, e.error])));
    S.surfaces = null;
    // Like Slack, the modal stays with what was typed and shows the errors under their inputs (until the view changes).
    if (errs) { const s = await api('surfaces'); renderSurface(s, errs); refill($('#surface'), values); S.surfaces = JSON.stringify(s); } else pollSurfaces();
  }
});
function note(r) { const n = $('#notice'); n.textContent = r.local ? '' : r.error ? 'App did not answer: ' + r.error : r.status && r.status !== 200 ? 'App answered HTTP ' + r.status : ''; n.style.display = n.textContent ? 'block' : 'none'; }
function refresh() { loadMessages(); loadThread(); }

async function pickMember(q) {
  const list = await api('members', { q: q || '' });
  $('#member').innerHTML = list.map((m) => '<option value="' + m.id + '"' + (m.id === S.user ? ' selected' : '') + '>' + esc(m.name) + (m.admin ? ' (admin)' : '') + '</option>').join('');
  if (!S.user && list[0]) S.user = list[0].id;
}
async function boot() {
  const params = new URLSearchParams(location.search);
  const teams = await (await fetch('/_ui/api/teams')).json();
  S.team = params.get('team') || teams[0].id; S.user = params.get('user') || ''; S.channel = params.get('channel') || '';
  $('#team').innerHTML = teams.map((t) => '<option value="' + t.id + '"' + (t.id === S.team ? ' selected' : '') + '>' + esc(t.name) + '</option>').join('');
  await pickMember('');
  $('#member').onchange = (e) => { S.user = e.target.value; S.channel = ''; S.thread = ''; loadSidebar(); };
  $('#team').onchange = (e) => { location.search = '?team=' + e.target.value; };
  $('#search').oninput = (e) => pickMember(e.target.value);
  loadSidebar(); loadMessages(); loadThread();
  setInterval(() => { loadMessages(); if (S.thread) loadThread(); pollSurfaces(); }, 2500);
}
boot();
`;
