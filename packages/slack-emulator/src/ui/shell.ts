import { escapeHtml } from '../http/respond.ts';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1d1c1d;background:#f4f2f5}
button,select,input,textarea{font:inherit}code{background:#f0eef1;padding:1px 4px;border-radius:3px}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:24px}
.oauth{max-width:560px;margin:48px auto}.oauth h1{font-size:20px;font-weight:400}.oauth label{display:block;margin:12px 0}
.oauth select{margin-left:8px;padding:4px}.scopes{columns:2;padding-left:18px}.buttons{display:flex;gap:12px;justify-content:flex-end;margin-top:20px}
.primary{background:#007a5a;color:#fff;border:0;border-radius:4px;padding:8px 18px;cursor:pointer;font-weight:700}
.secondary{background:#fff;color:#1d1c1d;border:1px solid #bbb;border-radius:4px;padding:8px 18px;cursor:pointer}
.app{display:grid;grid-template-columns:260px 1fr 340px;grid-template-rows:48px 1fr;height:100vh}
.top{grid-column:1/4;background:#350d36;color:#fff;display:flex;align-items:center;gap:14px;padding:0 14px}
.top select,.top input{padding:4px 6px;border-radius:4px;border:0;max-width:260px}.top .brand{font-weight:700;margin-right:auto}
.side{background:#3f0e40;color:#cfc3cf;overflow:auto;padding:10px 0}.side h4{margin:12px 16px 4px;font-size:12px;text-transform:uppercase;opacity:.7}
.side a{display:block;padding:3px 16px;color:inherit;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.side a.active{background:#1164a3;color:#fff}.side a:hover:not(.active){background:#350d36}
.main,.thread{display:flex;flex-direction:column;min-height:0;background:#fff}.thread{border-left:1px solid #ddd}
.head{padding:10px 16px;border-bottom:1px solid #e5e5e5;font-weight:700;min-height:44px}
.msgs{flex:1;overflow:auto;padding:8px 0}.msg{display:flex;gap:10px;padding:6px 16px}.msg:hover{background:#f8f8f8}
.msg img{width:36px;height:36px;border-radius:4px;flex:none}.msg .who{font-weight:700}.msg .when{color:#616061;font-size:12px;margin-left:6px}
.msg .sys{color:#616061;font-style:italic}.msg .body{min-width:0;flex:1;white-space:pre-wrap;word-wrap:break-word}
.chips{display:flex;flex-wrap:wrap;gap:4px;margin-top:4px}.chip{border:1px solid #ddd;border-radius:12px;background:#f6f6f6;padding:0 8px;cursor:pointer;font-size:12px}
.chip.mine{border-color:#1264a3;background:#e8f5fa}.link{color:#1264a3;cursor:pointer;font-size:12px;background:none;border:0;padding:0}
.blocks .btn{border:1px solid #bbb;background:#fff;border-radius:4px;padding:3px 12px;margin:4px 6px 0 0;cursor:pointer;font-weight:600}
.blocks .btn.primary{background:#007a5a;color:#fff;border-color:#007a5a}.blocks .btn.danger{background:#e01e5a;color:#fff;border-color:#e01e5a}
.composer{border-top:1px solid #e5e5e5;padding:10px 16px;display:flex;gap:8px}.composer textarea{flex:1;height:40px;padding:8px;border:1px solid #bbb;border-radius:6px;resize:vertical}
.overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center}
.modal{background:#fff;border-radius:8px;width:520px;max-height:85vh;overflow:auto;padding:20px}.modal h2{margin:0 0 12px;font-size:20px}
.field{margin:12px 0}.field label{display:block;font-weight:700;margin-bottom:4px}.field input,.field textarea,.field select{width:100%;padding:6px;border:1px solid #bbb;border-radius:4px}
.field .err{color:#e01e5a;font-size:12px}.empty{color:#616061;padding:16px}.notice{background:#fff6d6;padding:6px 16px;font-size:12px}
`;

export function pageShell(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;
}
