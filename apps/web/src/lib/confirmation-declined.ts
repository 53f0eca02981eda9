/** The person went back from "Send to N members?": nothing was sent, and it is not a failure. */
export class ConfirmationDeclined extends Error {
  constructor() {
    super('Not sent');
    this.name = 'ConfirmationDeclined';
  }
}
