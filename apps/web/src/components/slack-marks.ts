import { markInputRule, markPasteRule } from '@tiptap/core';
import Bold from '@tiptap/extension-bold';
import Italic, { underscoreInputRegex, underscorePasteRegex } from '@tiptap/extension-italic';

// Slack's own shorthand while typing: *bold* and _italic_ (Markdown's *x* would make italic, which a Slack
// user reads as bold). **bold** still works.
const starBold = /(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/;
const starBoldPaste = /(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))/g;
const doubleStarBold = /(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/;

export const SlackBold = Bold.extend({
  addInputRules() {
    return [
      markInputRule({ find: doubleStarBold, type: this.type }),
      markInputRule({ find: starBold, type: this.type }),
    ];
  },
  addPasteRules() {
    return [markPasteRule({ find: starBoldPaste, type: this.type })];
  },
});

export const SlackItalic = Italic.extend({
  addInputRules() {
    return [markInputRule({ find: underscoreInputRegex, type: this.type })];
  },
  addPasteRules() {
    return [markPasteRule({ find: underscorePasteRegex, type: this.type })];
  },
});
