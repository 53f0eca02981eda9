/** The person went back from "Send to N members?": nothing was sent, and it is not a failure. */
export class ConfirmationDeclined extends Error {
  constructor() {
    super('Not sent');
    this.name = 'ConfirmationDeclined';
  }
}

/** The server refused, and the dialog shows why itself (with what to do): no failure toast on top of it. */
export class ShownInDialog extends Error {
  constructor(readonly refusal: unknown) {
    super('Shown in the dialog');
    this.name = 'ShownInDialog';
  }
}
