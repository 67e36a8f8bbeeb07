import pino from 'pino';

/** The process's structured logger; components take `logger.child({component})`. */
export const logger = pino({ level: process.env.SVC_LOG_LEVEL ?? 'info' });
export type Logger = pino.Logger;
