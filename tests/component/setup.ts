// Shared set-up of the console's jsdom tests.
export {};
